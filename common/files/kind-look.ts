/**
 * How each spec §3 file kind looks: its Chinese label and colour, and the label of its encrypted
 * variant. Pure data (no React), so the mapping is unit-tested and reused by icons, tooltips and tags.
 */
import type { FileKind } from '../api/types';

export interface FileKindLook {
  kind: FileKind;
  /** Chinese, for tooltips and screen readers. */
  label: string;
  color: string;
}

const LOOKS: Record<FileKind, Omit<FileKindLook, 'kind'>> = {
  word: { label: 'Word 文档', color: '#2b579a' },
  excel: { label: 'Excel 表格', color: '#217346' },
  ppt: { label: 'PPT 演示文稿', color: '#d24726' },
  pdf: { label: 'PDF 文档', color: '#e5252a' },
  txt: { label: '文本文件', color: '#595959' },
  picture: { label: '图片', color: '#13a8a8' },
  video: { label: '视频', color: '#722ed1' },
  music: { label: '音频', color: '#eb2f96' },
  package: { label: '压缩包', color: '#d48806' },
  unknown: { label: '其他文件', color: '#8c8c8c' },
  folder: { label: '文件夹', color: '#faad14' },
  groupFolder: { label: '群组文件夹', color: '#fa8c16' },
};

/** Every kind of spec §3, in the spec's order. */
export const FILE_KINDS = Object.keys(LOOKS) as FileKind[];

/** An unknown value (an older or newer server) looks like 'unknown' rather than breaking the row. */
export function fileKindLook(kind: FileKind | string, encrypted = false): FileKindLook {
  const known = (Object.prototype.hasOwnProperty.call(LOOKS, kind) ? kind : 'unknown') as FileKind;
  const look = LOOKS[known];
  return { kind: known, color: look.color, label: encrypted ? `${look.label}（已加密）` : look.label };
}

/**
 * The kind an entry is drawn with. A folder is a group folder when the server says so or when it is
 * a group space's root; a file never shows a folder icon, whatever kind it claims.
 */
export function displayKindOf(entry: { isDir: boolean; kind: FileKind | string }, isGroupSpaceRoot = false): FileKind {
  if (entry.isDir) return isGroupSpaceRoot || entry.kind === 'groupFolder' ? 'groupFolder' : 'folder';
  const kind = fileKindLook(entry.kind).kind;
  return kind === 'folder' || kind === 'groupFolder' ? 'unknown' : kind;
}
