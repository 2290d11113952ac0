/**
 * Which files open in the preview modal, and as what: exactly the files the server has a rendition
 * for, for the caller's grant (common/api/byte-access.ts: a 预览 share sees any raster picture,
 * watermarked). Every other kind is downloaded instead — or, through a preview-only share, shown as
 * 该文件类型不支持预览. SVG is never shown inline: a user's SVG can carry script.
 */
import { byteVerdict, previewModeOf as renditionModeOf, type ByteGrant, type PreviewMode } from '../../../../common/api/byte-access';
import type { FileEntry, FileKind } from '../../../../common/api/types';

export type { PreviewMode };

/** Text files larger than this are downloaded rather than read into the page. */
export const TEXT_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

type Previewed = { isDir: boolean; kind: FileKind; name: string; size: number; share?: FileEntry['share'] };

/** The grant the entry reaches the caller through (their own or a space's, or a share's permission). */
export function grantOfEntry(file: Pick<FileEntry, 'share'>): ByteGrant {
  return file.share ? { via: 'share', permission: file.share.permission } : { via: 'own' };
}

/** The caller may take the original away (download, ZIP, copy): not through a preview-only share. */
export function mayDownload(file: Pick<FileEntry, 'share'>): boolean {
  return byteVerdict(grantOfEntry(file), 'download') === 'yes';
}

export function previewModeOf(file: Previewed): PreviewMode | null {
  if (file.isDir) return null;
  const mode = renditionModeOf(file.name, grantOfEntry(file));
  // A CSV is a table of its first rows, read with a Range: any size.
  if (mode === 'text' && file.size > TEXT_PREVIEW_MAX_BYTES) return null;
  return mode;
}
