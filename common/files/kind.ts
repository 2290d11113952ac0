import type { FileKind } from '../api/types';

const BY_EXTENSION: Record<string, FileKind> = {};
const add = (kind: FileKind, exts: string): void => {
  for (const e of exts.split(' ')) BY_EXTENSION[e] = kind;
};
add('word', 'doc docx dot dotx odt rtf wps');
add('excel', 'xls xlsx xlsm xlt xltx ods csv et');
add('ppt', 'ppt pptx pps ppsx pot potx odp dps');
add('pdf', 'pdf');
add('txt', 'txt md log ini conf json xml yaml yml');
add('picture', 'jpg jpeg png gif bmp webp svg tif tiff ico heic avif');
add('video', 'mp4 mkv avi mov wmv flv webm m4v mpg mpeg 3gp');
add('music', 'mp3 wav flac aac ogg m4a wma ape opus');
add('package', 'zip rar 7z tar gz tgz bz2 xz iso');

/** Spec §3 file kind, from the name's extension. */
export function fileKindOf(name: string, isDir: boolean): FileKind {
  if (isDir) return 'folder';
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return 'unknown';
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? 'unknown';
}
