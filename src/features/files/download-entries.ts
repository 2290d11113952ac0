/** Downloads from the files pages: one file (a link, or the transfer engine when large), or a streamed zip. */
import { downloadUrl, zipDownloadUrl } from '../../../common/api/paths';
import type { FileEntry } from '../../../common/api/types';
import { enqueueDownload } from '../../lib/upload-queue';

/**
 * Files larger than this download through the transfer engine (Range requests: pausable, resumable,
 * listed under '下载'); smaller ones are a plain link the browser downloads by itself.
 */
export const ENGINE_DOWNLOAD_THRESHOLD = 64 * 1024 * 1024;

function clickLink(href: string, name?: string): void {
  const a = document.createElement('a');
  a.href = href;
  if (name !== undefined) a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Resolves with 'engine' when the transfer list took it, 'browser' when the browser downloads it. */
export async function downloadFile(file: FileEntry): Promise<'engine' | 'browser'> {
  if (file.size > ENGINE_DOWNLOAD_THRESHOLD) {
    await enqueueDownload({ fileId: file.id, name: file.name, size: file.size });
    return 'engine';
  }
  clickLink(downloadUrl(file.id), file.name);
  return 'browser';
}

/** A folder, or several entries, as one zip streamed by the server (named after the only folder, else 打包下载). */
export function downloadZip(entries: readonly FileEntry[]): void {
  const only = entries.length === 1 ? entries[0] : undefined;
  const name = only?.isDir ? only.name : '打包下载';
  clickLink(zipDownloadUrl(entries.map((e) => e.id), name), `${name}.zip`);
}
