import type { FolderEntry, UploadTarget } from '../../../common/transfer/engine-api';
import type { PickedFiles } from '../../lib/folder-walk';
import { enqueueFolder, enqueueUploads } from '../../lib/upload-queue';
import { useFileDrop } from './use-file-drop';
import { useFeedback } from '../../lib/feedback/feedback';

/** Non-API failures (the API client has already shown its own). */
export function errorText(e: unknown, fallback: string): string | null {
  if (e instanceof Error && e.name === 'ApiCallError') return null;
  return e instanceof Error ? e.message : fallback;
}

/**
 * Uploads into the open folder through the transfer engine: picked files, a picked folder, or
 * whatever is dropped on the page. `target` null = this page takes no uploads.
 */
export function useBrowserUploads(target: UploadTarget | null) {
  const { message } = useFeedback();
  const failed = (e: unknown): void => {
    const text = errorText(e, '无法开始上传');
    if (text) message.error(text);
  };

  async function upload(files: File[]) {
    if (!target) return;
    try {
      await enqueueUploads(files, target);
      message.success(`已加入传输列表：${files.length} 个文件`);
    } catch (e) {
      failed(e);
    }
  }

  async function uploadFolder(entries: FolderEntry<File>[]) {
    if (!target) return;
    try {
      await enqueueFolder(entries, target);
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

  const drop = useFileDrop(uploadPicked, failed);
  return { upload, uploadFolder, drop };
}
