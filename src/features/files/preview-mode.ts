/**
 * Which files open in the preview modal, and as what (issue 5: images through server thumbnails,
 * PDF, text, audio, video); every other kind is downloaded instead. SVG is a picture but is never
 * shown inline: a user's SVG can carry script, so it is only downloaded.
 */
import type { FileKind } from '../../../common/api/types';

export type PreviewMode = 'image' | 'pdf' | 'text' | 'csv' | 'audio' | 'video';

/** Text files larger than this are downloaded rather than read into the page. */
export const TEXT_PREVIEW_MAX_BYTES = 2 * 1024 * 1024;

const MODES: Partial<Record<FileKind, PreviewMode>> = {
  picture: 'image',
  pdf: 'pdf',
  txt: 'text',
  music: 'audio',
  video: 'video',
};

export function previewModeOf(file: { isDir: boolean; kind: FileKind; name: string; size: number }): PreviewMode | null {
  if (file.isDir) return null;
  const mode = MODES[file.kind] ?? null;
  if (mode === 'image' && /\.svgz?$/i.test(file.name)) return null;
  // A table of its first rows, read with a Range: any size.
  if (/\.csv$/i.test(file.name)) return 'csv';
  if (mode === 'text' && file.size > TEXT_PREVIEW_MAX_BYTES) return null;
  return mode;
}
