/**
 * Which files have a rendition shown inline as they are (`GET /api/file/preview/:id`; the rules in
 * common/api/byte-access.ts) and with which type. Everything not listed — notably HTML, SVG and
 * scripts — has no preview at all (PREVIEW_UNSUPPORTED): its download is an attachment of an opaque
 * type with `Content-Security-Policy: sandbox`, so uploaded content never runs on the app's origin.
 * Text (XML too) is always `text/plain; charset=utf-8`, never HTML nor XML, also sandboxed.
 */
export const PREVIEW_INLINE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  avif: 'image/avif',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/plain; charset=utf-8',
  log: 'text/plain; charset=utf-8',
  csv: 'text/plain; charset=utf-8',
  json: 'text/plain; charset=utf-8',
  ini: 'text/plain; charset=utf-8',
  conf: 'text/plain; charset=utf-8',
  yaml: 'text/plain; charset=utf-8',
  yml: 'text/plain; charset=utf-8',
  xml: 'text/plain; charset=utf-8',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  opus: 'audio/ogg',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
};

/** The inline type of a file name, or null when it has no inline rendition. */
export function previewTypeOf(name: string): string | null {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return null;
  return PREVIEW_INLINE_TYPES[name.slice(dot + 1).toLowerCase()] ?? null;
}
