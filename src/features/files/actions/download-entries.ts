/**
 * Downloads from the files pages: the browser's own download, for a file of any size (one file) or
 * a streamed zip (folders, several entries).
 *
 * One file is a plain link to the download route, which answers with an attachment, its length, a
 * strong ETag and Accept-Ranges: the browser writes the bytes to disk as they arrive, shows the
 * download in its own list, and can resume an interrupted one with Range + If-Range. Nothing passes
 * through the page, a worker or browser storage on the way.
 */
import { downloadUrl, zipDownloadUrl } from '../../../../common/api/paths';
import type { FileEntry } from '../../../../common/api/types';
import { archiveBaseName } from '../../../../common/files/zip-name';
import { startDownload } from '../../../lib/save-blob';

/** Starts the browser's download of one file (whatever its size). */
export function downloadFile(file: FileEntry): void {
  startDownload(downloadUrl(file.id), { name: file.name });
}

/** A folder, or several entries, as one zip streamed by the server (named after the folder, or the first entry: `报告 等3个文件.zip`). */
export function downloadZip(entries: readonly FileEntry[]): void {
  const name = archiveBaseName(entries);
  startDownload(zipDownloadUrl(entries.map((e) => e.id), name), { name: `${name}.zip` });
}
