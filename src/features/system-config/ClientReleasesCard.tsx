import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Col, Descriptions, Form, Input, Progress, Row, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import type { ClientRelease } from '../../../common/api/types';
import { useClientReleases, useSaveClientRelease } from '../../lib/data/client-releases';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';
import { enqueueUploads, watchUpload } from '../../lib/upload-queue';
import { installerProgress, type InstallerUpload } from './installer-upload';

const TYPE_LABELS: Record<3 | 4, string> = { 3: '内网客户端', 4: '外网客户端' };
/** The server's rule (common/api/endpoints/client-releases.ts), said in Chinese before it is asked. */
const VERSION_PATTERN = /^\d+(\.\d+){0,3}$/;

interface ReleaseForm {
  versionName: string;
  versionDesc: string;
  isForce: boolean;
}

/**
 * 客户端版本 (issue 38): per client type (3 internal build, 4 public build) the release the desktop
 * clients are offered — version, description, forced or not — and its installer, uploaded through the
 * transfer engine into the admin's 个人文件 (the card waits for the engine to say the file exists,
 * lib/upload-queue.ts watchUpload). Saving is on the action log.
 */
export function ClientReleasesCard() {
  const releases = useClientReleases();
  return (
    <Card title="客户端版本" loading={releases.isPending && !releases.data} data-testid="client-releases">
      <Typography.Paragraph type="secondary">
        桌面客户端启动时按类型（内网 3、外网 4）检查这里的版本：版本号高于客户端自身时提示「发现新版本」并显示版本说明，强制更新的版本不能跳过。安装包上传到您的「个人文件」，删除该文件即撤下安装包。
      </Typography.Paragraph>
      {releases.isError && !releases.data && <Alert type="error" showIcon message="客户端版本加载失败" />}
      <Row gutter={[16, 16]}>
        {([3, 4] as const).map((clientType) => (
          <Col key={clientType} xs={24} xl={12}>
            <ReleaseEditor clientType={clientType} release={releases.data?.find((r) => r.clientType === clientType)} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

function CurrentRelease({ release, clientType }: { release: ClientRelease | undefined; clientType: 3 | 4 }) {
  const published = Boolean(release?.versionName);
  return (
    <Descriptions size="small" column={1} bordered data-testid={`release-${clientType}-current`}>
      <Descriptions.Item label="当前版本">{published ? release!.versionName : <Typography.Text type="secondary">未发布</Typography.Text>}</Descriptions.Item>
      {published && <Descriptions.Item label="更新方式">{release!.isForce ? <Tag color="red">强制更新</Tag> : <Tag>可跳过</Tag>}</Descriptions.Item>}
      {published && (
        <Descriptions.Item label="安装包">
          {release!.file ? `${release!.file.name}（${formatSize(release!.file.size)}）` : <Typography.Text type="warning">未设置（或文件已删除）</Typography.Text>}
        </Descriptions.Item>
      )}
      {published && release!.updatedAt != null && <Descriptions.Item label="更新时间">{formatDateTime(release!.updatedAt)}</Descriptions.Item>}
    </Descriptions>
  );
}

function ReleaseEditor({ clientType, release }: { clientType: 3 | 4; release: ClientRelease | undefined }) {
  const [form] = Form.useForm<ReleaseForm>();
  const online = useOnline();
  const save = useSaveClientRelease();
  const { message } = useFeedback();
  const input = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<InstallerUpload | null>(null);
  /** The installer to save: the release's until another is uploaded (or removed: null). */
  const [installer, setInstaller] = useState<ClientRelease['file'] | undefined>(undefined);
  const abort = useRef<AbortController | null>(null);
  const label = TYPE_LABELS[clientType];
  const shownInstaller = installer === undefined ? (release?.file ?? null) : installer;

  useEffect(() => {
    if (release) form.setFieldsValue({ versionName: release.versionName, versionDesc: release.versionDesc, isForce: release.isForce });
  }, [release, form]);
  useEffect(() => () => abort.current?.abort(), []);

  async function pick(file: File) {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setUpload({ name: file.name, size: file.size, state: 'waiting', percent: 0, error: null });
    try {
      // Into 个人文件's top folder; a file of the same name there stays, this one gets a free name.
      const [id] = await enqueueUploads([file], { parentId: null, category: 1 }, { onConflict: 'rename', purpose: 'clientInstaller' });
      const fileId = await watchUpload(id!, { signal: controller.signal, onChange: (item) => setUpload(installerProgress(item)) });
      setInstaller({ id: fileId, name: file.name, size: file.size });
      setUpload(null);
      message.success(`安装包 ${file.name} 已上传，保存后生效`);
    } catch (error) {
      if (controller.signal.aborted) return;
      setUpload((u) => (u ? { ...u, state: 'failed', error: error instanceof Error ? error.message : '上传失败' } : u));
    }
  }

  async function submit(values: ReleaseForm) {
    try {
      await save.mutateAsync({
        clientType,
        versionName: values.versionName.trim(),
        versionDesc: values.versionDesc ?? '',
        isForce: values.isForce,
        fileId: shownInstaller?.id ?? null,
      });
      setInstaller(undefined);
      message.success(`${label}版本已保存`);
    } catch {
      // the API client has shown the reason (in Chinese)
    }
  }

  const uploading = upload !== null && upload.state !== 'failed';
  return (
    <Card type="inner" title={`${label}（类型 ${clientType}）`} data-testid={`release-${clientType}`}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <CurrentRelease release={release} clientType={clientType} />
        <Form form={form} layout="vertical" initialValues={{ versionName: '', versionDesc: '', isForce: false }} onFinish={submit} disabled={!online}>
          <Form.Item
            name="versionName"
            label="版本号"
            validateTrigger="onBlur"
            rules={[
              { required: true, whitespace: true, message: '请输入版本号' },
              { pattern: VERSION_PATTERN, message: '版本号由数字和点组成，如 2.1.0' },
              { max: 32, message: '版本号不超过 32 个字符' },
            ]}
          >
            <Input maxLength={32} placeholder="如 2.1.0" data-testid={`release-${clientType}-version`} />
          </Form.Item>
          <Form.Item name="versionDesc" label="版本说明" extra="客户端提示新版本时显示">
            <Input.TextArea maxLength={2000} showCount autoSize={{ minRows: 2, maxRows: 6 }} data-testid={`release-${clientType}-desc`} />
          </Form.Item>
          <Form.Item name="isForce" label="强制更新" valuePropName="checked" extra="开启后客户端必须安装此版本才能继续使用">
            <Switch data-testid={`release-${clientType}-force`} />
          </Form.Item>
          <Form.Item label="安装包">
            <Space orientation="vertical" style={{ width: '100%' }}>
              <Space wrap>
                <Typography.Text data-testid={`release-${clientType}-installer`}>
                  {shownInstaller ? `${shownInstaller.name}（${formatSize(shownInstaller.size)}）` : <Typography.Text type="secondary">未选择</Typography.Text>}
                </Typography.Text>
                <input
                  ref={input}
                  type="file"
                  hidden
                  style={{ display: 'none' }}
                  data-testid={`release-${clientType}-installer-file`}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (file) void pick(file);
                  }}
                />
                <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} disabled={!online || uploading}>
                  {shownInstaller ? '更换安装包' : '上传安装包'}
                </Button>
                {shownInstaller && (
                  <Button type="link" onClick={() => setInstaller(null)} disabled={!online || uploading}>
                    不提供安装包
                  </Button>
                )}
              </Space>
              {upload && (
                <div data-testid={`release-${clientType}-upload`} data-state={upload.state}>
                  <Typography.Text type={upload.state === 'failed' ? 'danger' : 'secondary'}>
                    {upload.name}：{upload.error ?? installerStateText(upload.state)}
                  </Typography.Text>
                  {upload.state !== 'failed' && <Progress percent={upload.percent} size="small" />}
                </div>
              )}
            </Space>
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!online || uploading} data-testid={`release-${clientType}-save`}>
            保存{label}版本
          </Button>
        </Form>
      </Space>
    </Card>
  );
}

function installerStateText(state: InstallerUpload['state']): string {
  switch (state) {
    case 'waiting':
      return '等待上传';
    case 'uploading':
      return '上传中';
    case 'held':
      return '等待处理，请在传输列表中处理';
    default:
      return '上传失败';
  }
}
