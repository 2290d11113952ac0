import { KeyOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Input, List, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { DEVICE_PASSWORD_NAME_MAX, type DevicePasswordCreated, type DevicePasswordInfo } from '../../../common/api/device-passwords';
import { formatDateTime } from '../../../common/format/date';
import { createDevicePassword, davAddressOf, revokeDevicePassword, useDevicePasswordsQuery } from '../../lib/data/device-passwords';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';

const mono = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', wordBreak: 'break-all' as const };

/** Copies `text`; where the browser refuses (no clipboard on plain HTTP), shows it to copy by hand. */
function useCopy() {
  const { message } = useFeedback();
  return (text: string, what: string) => {
    const shown = () => message.info(`请手动复制：${text}`, 8);
    if (!navigator.clipboard) return shown();
    void navigator.clipboard.writeText(text).then(() => message.success(`已复制${what}`), shown);
  };
}

function usedText(p: DevicePasswordInfo): string {
  if (p.lastUsedAt === null) return '从未使用';
  return `最近使用 ${formatDateTime(p.lastUsedAt)}${p.lastUsedAddress ? `（IP ${p.lastUsedAddress}）` : ''}`;
}

/** 新建设备密码: a name, then the password — shown this once, with 复制. */
function CreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const copy = useCopy();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<DevicePasswordCreated | null>(null);

  function close() {
    // The password leaves memory with the dialog: it is never shown again.
    setCreated(null);
    setName('');
    onClose();
  }

  async function submit() {
    if (!name.trim()) return;
    setBusy(true);
    try {
      setCreated(await createDevicePassword(queryClient, name.trim()));
    } catch {
      // shown by the API client (a name already used, the limit)
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      title={created ? '设备密码已创建' : '新建设备密码'}
      open={open}
      onCancel={close}
      maskClosable={!created}
      destroyOnHidden
      footer={
        created ? (
          <Button type="primary" onClick={close} data-testid="device-password-done">
            我已保存，关闭
          </Button>
        ) : (
          [
            <Button key="cancel" onClick={close}>
              取消
            </Button>,
            <Button key="ok" type="primary" loading={busy} disabled={!name.trim()} onClick={() => void submit()} data-testid="device-password-submit">
              创建
            </Button>,
          ]
        )
      }
    >
      {created ? (
        <div data-testid="device-password-created">
          <Alert type="warning" showIcon message="密码只显示这一次" description="关闭后无法再次查看。请现在复制，填入 WebDAV 客户端的密码栏；忘记了就撤销它，再新建一个。" style={{ marginBottom: 16 }} />
          <Typography.Paragraph style={{ marginBottom: 4 }}>「{created.name}」的设备密码：</Typography.Paragraph>
          <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography.Text strong style={{ ...mono, fontSize: 16 }} data-testid="device-password-value">
              {created.password}
            </Typography.Text>
            <Button onClick={() => copy(created.password, '设备密码')} data-testid="device-password-copy">
              复制
            </Button>
          </div>
        </div>
      ) : (
        <Form layout="vertical" onFinish={() => void submit()}>
          <Form.Item label="设备名称" extra="写明在哪台设备或哪个程序上使用，如「办公室电脑」「rclone 备份」。">
            <Input
              autoFocus
              value={name}
              maxLength={DEVICE_PASSWORD_NAME_MAX}
              placeholder="例如：家里的 Mac"
              onChange={(e) => setName(e.target.value)}
              onPressEnter={() => void submit()}
              data-testid="device-password-name"
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/**
 * 账号安全 → 设备密码 (issue 39): passwords for WebDAV clients (Explorer, Finder, rclone, office apps),
 * which cannot pass the web login's captcha. Lists name, 创建时间 and 最近使用; 新建 shows the new
 * password once; 撤销 refuses it from the next request. Beside them: the address and user name to type.
 */
export function DevicePasswords() {
  const online = useOnline();
  const queryClient = useQueryClient();
  const { message, modal } = useFeedback();
  const copy = useCopy();
  const query = useDevicePasswordsQuery();
  const [creating, setCreating] = useState(false);
  const list = query.data;
  const address = list ? davAddressOf(list) : '';

  function revoke(p: DevicePasswordInfo) {
    modal.confirm({
      title: `撤销「${p.name}」？`,
      content: '撤销后，使用这个设备密码的客户端会立即无法访问网盘，需要新建设备密码重新填写。',
      okText: '撤销',
      cancelText: '取消',
      okButtonProps: { danger: true, ...({ 'data-testid': 'confirm-device-password-revoke' } as Record<string, string>) },
      onOk: async () => {
        await revokeDevicePassword(queryClient, p.id);
        message.success(`已撤销「${p.name}」`);
      },
    });
  }

  return (
    <Card
      title="设备密码"
      style={{ marginTop: 16 }}
      data-testid="device-passwords"
      extra={
        <Button type="primary" disabled={!online || !list?.enabled} onClick={() => setCreating(true)} data-testid="device-password-new">
          新建设备密码
        </Button>
      }
    >
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <>
          <Typography.Paragraph type="secondary">
            在 Windows 资源管理器、macOS 访达、rclone、Office 等 WebDAV 客户端中使用网盘时，用账号和设备密码登录（网页登录密码不能用于 WebDAV）。每台设备单独建一个，不用时撤销。
          </Typography.Paragraph>
          {list && !list.enabled && <Alert type="info" showIcon message="管理员已关闭 WebDAV，设备密码暂不可用" style={{ marginBottom: 12 }} data-testid="device-passwords-off" />}
          {list && (
            <div style={{ background: '#fafafa', border: '1px solid #f0f0f0', borderRadius: 8, padding: '8px 12px', marginBottom: 12 }} data-testid="dav-address">
              <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
                <Typography.Text type="secondary">WebDAV 地址</Typography.Text>
                <Typography.Text style={mono} data-testid="dav-address-value">
                  {address}
                </Typography.Text>
                <Button size="small" onClick={() => copy(address, 'WebDAV 地址')}>
                  复制
                </Button>
              </div>
              <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', marginTop: 4 }}>
                <Typography.Text type="secondary">用户名</Typography.Text>
                <Typography.Text style={mono} data-testid="dav-username">
                  {list.username}
                </Typography.Text>
              </div>
            </div>
          )}
          <List
            itemLayout="horizontal"
            dataSource={list?.items ?? []}
            locale={{ emptyText: query.isError ? '设备密码加载失败，请稍后重试' : '还没有设备密码' }}
            renderItem={(p) => (
              <List.Item
                data-testid="device-password-row"
                actions={[
                  <Button key="revoke" size="small" danger disabled={!online} onClick={() => revoke(p)} data-testid="device-password-revoke">
                    撤销
                  </Button>,
                ]}
              >
                <List.Item.Meta
                  avatar={<KeyOutlined style={{ fontSize: 22, color: '#0958d9' }} />}
                  title={<span data-testid="device-password-name-value">{p.name}</span>}
                  description={
                    <Typography.Text type="secondary" data-testid="device-password-used">
                      {`创建于 ${formatDateTime(p.createdAt)} · ${usedText(p)}`}
                    </Typography.Text>
                  }
                />
              </List.Item>
            )}
          />
        </>
      )}
      <CreateDialog open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
