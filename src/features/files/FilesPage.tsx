import { App, Flex } from 'antd';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import type { FileCategory, FileEntry } from '../../../common/api/types';
import { fileListVersionAtom } from '../../lib/file-events';
import { enqueueUploads } from '../../lib/upload-queue';
import { FileBreadcrumb } from './FileBreadcrumb';
import { FileTable } from './FileTable';
import { FileToolbar } from './FileToolbar';
import { makeFolder, renameFile } from './files-api';
import { NameModal } from './NameModal';
import { useCurrentDir } from './use-current-dir';
import { useFilePages } from './use-file-pages';

type Dialog = { kind: 'mkdir' } | { kind: 'rename'; file: FileEntry } | null;

/** A file category's list: breadcrumb, toolbar, table with infinite loading, name dialogs. */
export function FilesPage({ category, rootName }: { category: FileCategory; rootName: string }) {
  const { message } = App.useApp();
  const [dir, openDir] = useCurrentDir();
  const version = useAtomValue(fileListVersionAtom);
  const pages = useFilePages(dir, category, version);
  const [dialog, setDialog] = useState<Dialog>(null);

  async function upload(files: File[]) {
    try {
      await enqueueUploads(files, { parentId: dir, category });
      message.success(`已加入传输列表：${files.length} 个文件`);
    } catch (e) {
      message.error(e instanceof Error ? e.message : '无法开始上传');
    }
  }

  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="files-page">
      <FileBreadcrumb dir={dir} rootName={rootName} onOpen={openDir} />
      <FileToolbar onFiles={upload} onMkdir={() => setDialog({ kind: 'mkdir' })} />
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
