import { DownloadOutlined } from '@ant-design/icons';
import { Button, Modal, Typography } from 'antd';
import { formatSize } from '../../common/format/size';
import { useOwnClientVersion } from '../lib/data/client-releases';

/**
 * 获取桌面客户端: what the desktop client does and how to get it — the installer the tenant's admin
 * set in 系统配置 → 客户端版本 for this build's client type (3 internal, 4 public). With none set it
 * says honestly that the administrator hands it out — never a link that leads nowhere.
 */
export function DesktopClientHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { version } = useOwnClientVersion(open);
  const installer = version?.installer;
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title="获取桌面客户端"
      footer={
        <Button type="primary" onClick={onClose}>
          知道了
        </Button>
      }
      destroyOnHidden
    >
      <div data-testid="desktop-client-help">
        <Typography.Paragraph>
          桌面客户端（Windows、macOS、Linux）把电脑上选定的文件夹与云盘的「同步文件」保持同步：本机新增或修改的文件自动上传，大文件断点续传，断网时的修改在联网后自动同步。
        </Typography.Paragraph>
        <Typography.Title level={5}>如何获取</Typography.Title>
        {installer ? (
          <Typography.Paragraph>
            <Button type="primary" icon={<DownloadOutlined />} href={installer.url} download={installer.name} data-testid="desktop-client-download">
              下载桌面客户端 {version.versionName}
            </Button>
            <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
              {installer.name}（{formatSize(installer.size)}）
            </Typography.Text>
            {version.versionDesc && <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0, whiteSpace: 'pre-wrap' }}>{version.versionDesc}</Typography.Paragraph>}
          </Typography.Paragraph>
        ) : (
          <Typography.Paragraph>
            本单位的桌面客户端安装包由系统管理员统一发放，网页端暂不提供下载。请联系系统管理员获取适合您电脑系统的安装包；安装后客户端会自动从本单位服务器获取更新。
          </Typography.Paragraph>
        )}
        <Typography.Title level={5}>安装之后</Typography.Title>
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          用本账号登录客户端，点击顶部的「本机同步」→「添加同步文件夹」，选择电脑上的文件夹。同步的内容会出现在网页端的「同步文件」中，在任何设备上都能查看和下载。
        </Typography.Paragraph>
      </div>
    </Modal>
  );
}
