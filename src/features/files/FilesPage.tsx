import { CloudUploadOutlined } from '@ant-design/icons';
import { App, Flex } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { FileCategory, FileEntry } from '../../../common/api/types';
import type { FolderEntry } from '../../../common/transfer/engine-api';
import { usePermission } from '../../lib/button-permissions';
import { fileListVersionAtom } from '../../lib/file-events';
import type { PickedFiles } from '../../lib/folder-walk';
import { enqueueFolder, enqueueUploads } from '../../lib/upload-queue';
import { FileBreadcrumb } from './FileBreadcrumb';
import { FileTable } from './FileTable';
import { FileToolbar } from './FileToolbar';
import { makeFolder, renameFile } from './files-api';
import { NameModal } from './NameModal';
import { useCurrentDir } from './use-current-dir';
import { useFileDrop } from './use-file-drop';
import { useFilePages } from './use-file-pages';

type Dialog = { kind: 'mkdir' } | { kind: 'rename'; file: FileEntry } | null;

/** A file category's list: breadcrumb, toolbar, table with infinite loading, name dialogs. */
export function FilesPage({ category, rootName }: { category: FileCategory; rootName: string }) {
  const { message } = App.useApp();
  const [dir, openDir] = useCurrentDir();
  const version = useAtomValue(fileListVersionAtom);
  const pages = useFilePages(dir, category, version);
  const [dialog, setDialog] = useState<Dialog>(null);

  const failed = (e: unknown): void => {
    message.error(e instanceof Error ? e.message : '无法开始上传');
  };

  async function upload(files: File[]) {
    try {
      await enqueueUploads(files, { parentId: dir, category });
      message.success(`已加入传输列表：${files.length} 个文件`);
    } catch (e) {
      failed(e);
    }
  }

  async function uploadFolder(entries: FolderEntry<File>[]) {
    try {
      await enqueueFolder(entries, { parentId: dir, category });
      message.success(`已加入传输列表：${entries.length} 个文件`);
    } catch (e) {
      failed(e);
    }
  }

  function uploadPicked({ files, folderEntries }: PickedFiles) {
    if (files.length > 0) void upload(files);
    if (folderEntries.length > 0) void uploadFolder(folderEntries);
    if (files.length === 0 && folderEntries.length === 0) message.info('没有可上传的文件（空文件夹不会上传）');
  }

  const canUpload = usePermission('file:upload');
  const drop = useFileDrop(uploadPicked, failed);

  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0, position: 'relative' }} data-testid="files-page" {...(canUpload ? drop.handlers : {})}>
      {drop.dragging && (
        <div
          data-testid="drop-overlay"
          style={{
            position: 'absolute',
            inset: 0,
            zIndex: 10,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 12,
            background: 'rgba(22, 119, 255, 0.06)',
            border: '2px dashed #1677ff',
            borderRadius: 8,
            color: '#1677ff',
            fontSize: 16,
            pointerEvents: 'none',
          }}
        >
          <CloudUploadOutlined style={{ fontSize: 40 }} />
          松开鼠标上传到当前文件夹
        </div>
      )}
      <FileBreadcrumb dir={dir} rootName={rootName} onOpen={openDir} />
      <FileToolbar onFiles={(files) => void upload(files)} onFolder={(entries) => void uploadFolder(entries)} onMkdir={() => setDialog({ kind: 'mkdir' })} />
      <FileTable pages={pages} onOpenFolder={openDir} onRename={(file) => setDialog({ kind: 'rename', file })} />
      <NameModal
        open={dialog?.kind === 'mkdir'}
        title="新建文件夹"
        initialName=""
        inputTestId="mkdir-name-input"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          await makeFolder({ parentId: dir, category, name });
          message.success('文件夹已创建');
          pages.reload();
        }}
      />
      <NameModal
        open={dialog?.kind === 'rename'}
        title="重命名"
        initialName={dialog?.kind === 'rename' ? dialog.file.name : ''}
        inputTestId="rename-name-input"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return;
          await renameFile({ id: dialog.file.id, name });
          message.success('已重命名');
          pages.reload();
        }}
      />
    </Flex>
  );
}
