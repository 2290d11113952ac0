import { useRef, type ReactNode } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import { enqueueNewVersion } from '../../../lib/upload-queue';
import { useFeedback } from '../../../lib/feedback/feedback';

/**
 * 上传新版本: asks for a file, then hands it to the transfer engine with its newVersion policy under the
 * existing file's own name and folder, so the upload becomes that file's next version. `pick(file)`
 * opens the chooser; render `input` once. With `forFile`, the input always targets that file (a
 * drawer about one file), whether or not `pick` opened it.
 */
export function useNewVersionUpload(testId: string, forFile: FileEntry | null = null): { pick: (file: FileEntry) => void; input: ReactNode } {
  const { message } = useFeedback();
  const ref = useRef<HTMLInputElement>(null);
  const target = useRef<FileEntry | null>(null);

  async function upload(picked: File, file: FileEntry) {
    try {
      await enqueueNewVersion(picked, { fileId: file.id, name: file.name, parentId: file.parentId, category: file.category });
      message.success(`「${file.name}」的新版本已加入传输列表`);
    } catch (e) {
      message.error(e instanceof Error ? e.message : '无法开始上传');
    }
  }

  const input = (
    <input
      ref={ref}
      type="file"
      hidden
      data-testid={testId}
      aria-label="选择新版本文件"
      onChange={(e) => {
        const picked = e.target.files?.[0];
        e.target.value = '';
        const file = forFile ?? target.current;
        if (picked && file) void upload(picked, file);
      }}
    />
  );

  return {
    pick: (file) => {
      target.current = file;
      ref.current?.click();
    },
    input,
  };
}
