import { previewTypeOf } from '../../common/files/preview';

/**
 * getcontenttype of a file (PROPFIND): office apps and Finder pick their handler by it. Only
 * reported, never used to serve bytes: GET answers application/octet-stream as an attachment under a
 * sandbox CSP like every download (server/http/send-content.ts), so uploaded HTML never runs here.
 */
const OFFICE: Readonly<Record<string, string>> = {
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  zip: 'application/zip',
  html: 'text/html',
  htm: 'text/html',
  svg: 'image/svg+xml',
};

export function contentTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  return OFFICE[ext] ?? previewTypeOf(name) ?? 'application/octet-stream';
}
