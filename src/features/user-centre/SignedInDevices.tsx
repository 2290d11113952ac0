import { DesktopOutlined, MobileOutlined, TabletOutlined } from '@ant-design/icons';
import { Button, Card, List, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import type { SignedInDevice } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { endOtherDevices, endSignedInDevice } from '../../lib/account-api';
import { useSignedInDevicesQuery } from '../../lib/data/queries';
import { useFeedback } from '../../lib/feedback/feedback';

function DeviceIcon({ device }: { device: string }) {
  const style = { fontSize: 22, color: '#0958d9' };
  if (/iPad|平板/.test(device)) return <TabletOutlined style={style} />;
  if (/iPhone|手机|鸿蒙/.test(device)) return <MobileOutlined style={style} />;
  return <DesktopOutlined style={style} />;
}

/** 'Windows 电脑 · Chrome 120' */
const titleOf = (d: SignedInDevice) => (d.browser ? `${d.device} · ${d.browser}` : d.device);

/**
 * 账号安全 → 登录设备 (issue 44): where the account is signed in now (device and browser from the
 * User-Agent, address, last activity), this device marked; 退出 signs one other device out (its next
 * request shows the signed-out box), 退出其他设备 all of them. Each is in the action log.
 */
export function SignedInDevices() {
  const { message, modal } = useFeedback();
  const query = useSignedInDevicesQuery();
  const [busy, setBusy] = useState<string | null>(null);
  const devices = query.data ?? [];
  const others = devices.filter((d) => !d.current);

  async function end(device: SignedInDevice) {
    setBusy(device.id);
    try {
      await endSignedInDevice(device.id);
      message.success(`已退出「${titleOf(device)}」`);
    } catch {
      // shown by the API client (an ended device: the list is refreshed below)
    } finally {
      setBusy(null);
      void query.refetch();
    }
  }

  function endOthers() {
    modal.confirm({
      title: '退出其他设备？',
      content: `将退出除本机外的 ${others.length} 台设备，这些设备需要重新登录。`,
      okText: '全部退出',
      cancelText: '取消',
      okButtonProps: { danger: true, ...({ 'data-testid': 'confirm-end-others' } as Record<string, string>) },
      onOk: async () => {
        const { ended } = await endOtherDevices();
        message.success(`已退出 ${ended} 台其他设备`);
        await query.refetch();
      },
    });
  }

  return (
    <Card
      title="登录设备"
      style={{ marginTop: 16 }}
      data-testid="signed-in-devices"
      extra={
        <Button danger disabled={others.length === 0} onClick={endOthers} data-testid="devices-end-others">
          退出其他设备
        </Button>
      }
    >
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <List
          itemLayout="horizontal"
          dataSource={devices}
          locale={{ emptyText: query.isError ? '登录设备加载失败，请稍后重试' : '暂无登录设备' }}
          renderItem={(d) => (
            <List.Item
              data-testid="device-row"
              data-current={d.current || undefined}
              actions={
                d.current
                  ? []
                  : [
                      <Button key="end" size="small" loading={busy === d.id} onClick={() => void end(d)} data-testid="device-end">
                        退出
                      </Button>,
                    ]
              }
            >
              <List.Item.Meta
                avatar={<DeviceIcon device={d.device} />}
                title={
                  <span data-testid="device-title">
                    {titleOf(d)}
                    {d.current && (
                      <Tag color="blue" style={{ marginLeft: 8 }} data-testid="device-current">
                        本机
                      </Tag>
                    )}
                    {d.networkEnv === 'public' && <Tag style={{ marginLeft: 8 }}>外网</Tag>}
                  </span>
                }
                description={
                  <Typography.Text type="secondary">
                    {[d.address ? `IP ${d.address}` : null, `最近活动 ${formatDateTime(d.lastActiveAt)}`, `登录于 ${formatDateTime(d.signedInAt)}`].filter(Boolean).join(' · ')}
                  </Typography.Text>
                }
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}
