import { CloudUploadOutlined, DownloadOutlined, RollbackOutlined } from '@ant-design/icons';
import { Button, Drawer, List, Popconfirm, Space, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { downloadUrl, versionDownloadUrl } from '../../../../common/api/paths';
import type { FileEntry, FileVersion } from '../../../../common/api/types';
import { formatDateTime } from '../../../../common/format/date';
import { formatSize } from '../../../../common/format/size';
import { Permission } from '../../../lib/button-permissions';
import { fileListVersionAtom } from '../../../lib/file-events';
import { ACTION_PERMISSIONS } from '../actions/file-actions';
import { listVersions, restoreVersion } from '../files-api';
import { useNewVersionUpload } from '../uploads/use-new-version-upload';
import { useFeedback } from '../../../lib/feedback/feedback';

/**
 * 历史版本 of a file: newest first (the first is the current content), each downloadable; an old one
 * can be restored as the new current content; 上传新版本 uploads the next one (use-new-version-upload).
 */
export function VersionsDrawer({ file, canChange, onClose, onChanged }: { file: FileEntry | null; canChange: boolean; onClose: () => void; onChanged: (fileId: string) => void }) {
  const { message } = useFeedback();
  const [versions, setVersions] = useState<FileVersion[] | null>(null);
  const newVersion = useNewVersionUpload('version-upload-input', file);
  // Bumped when an upload finishes: a new version uploaded from here shows up without reopening.
  const filesChanged = useAtomValue(fileListVersionAtom);

  const load = useCallback(() => {
    if (!file) return;
    listVersions(file.id).then(setVersions, () => setVersions([]));
  }, [file]);

  useEffect(() => setVersions(null), [file]);
  useEffect(load, [load, filesChanged]);


  async function restore(v: FileVersion) {
    if (!file) return;
    try {
      await restoreVersion(file.id, v.id);
      message.success(`已恢复到版本 ${v.versionNo}`);
      load();
      onChanged(file.id);
    } catch {
      // shown by the API client
    }
  }


  return (
    <Drawer open={file !== null} title={file ? `历史版本：${file.name}` : ''} onClose={onClose} size="large" destroyOnHidden>
      {file && canChange && (
        <Permission code={ACTION_PERMISSIONS.uploadVersion ?? ''}>
          <Button icon={<CloudUploadOutlined />} onClick={() => newVersion.pick(file)} data-testid="version-upload" style={{ marginBottom: 12 }}>
            上传新版本
          </Button>
          {newVersion.input}
        </Permission>
      )}
      <List<FileVersion>
        data-testid="version-list"
        loading={versions === null}
        dataSource={versions ?? []}
        locale={{ emptyText: '暂无历史版本' }}
        renderItem={(v) => (
          <List.Item
            data-testid="version-item"
            data-version={v.versionNo}
            actions={[
              <Button
                key="dl"
                type="link"
                size="small"
                icon={<DownloadOutlined />}
                href={v.current ? downloadUrl(file?.id ?? '') : versionDownloadUrl(v.id)}
                download={file?.name}
                data-testid={`version-download-${v.versionNo}`}
              >
                下载
              </Button>,
              !v.current && canChange ? (
                <Popconfirm key="restore" title={`将版本 ${v.versionNo} 恢复为当前版本？`} okText="恢复" cancelText="取消" onConfirm={() => restore(v)}>
                  <Button type="link" size="small" icon={<RollbackOutlined />} data-testid={`version-restore-${v.versionNo}`}>
                    恢复
                  </Button>
                </Popconfirm>
              ) : null,
            ]}
          >
            <List.Item.Meta
              title={
                <Space>
                  <span>版本 {v.versionNo}</span>
                  {v.current && <Tag color="blue">当前版本</Tag>}
                </Space>
              }
              description={
                <Typography.Text type="secondary">
                  {formatSize(v.size)} · {formatDateTime(v.createdAt)} · {v.createdBy.nickName || v.createdBy.id}
                </Typography.Text>
              }
            />
          </List.Item>
        )}
      />
    </Drawer>
  );
}
