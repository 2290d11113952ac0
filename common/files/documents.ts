/**
 * Which files the documents pipeline (issue 41; docs/documents.md) works on, by the name's extension:
 * - office: converted to a PDF rendition by LibreOffice in the background, its text extracted from it,
 *   a first-page thumbnail made; the preview answers the rendition once it exists;
 * - pdf: no conversion (the preview is the file itself); text and a first-page thumbnail;
 * - text: text extraction only (the bytes, UTF-8 or GB18030).
 */
export type DocumentKind = 'office' | 'pdf' | 'text';

const BY_EXTENSION: Record<string, DocumentKind> = {};
const add = (kind: DocumentKind, exts: string): void => {
  for (const e of exts.split(' ')) BY_EXTENSION[e] = kind;
};
add('office', 'doc docx docm dot dotx odt ott rtf wps xls xlsx xlsm xlt xltx ods ots et ppt pptx pptm pps ppsx pot potx odp otp dps');
add('pdf', 'pdf');
add('text', 'txt md log csv ini conf json xml yaml yml');

/** The extension, lower-cased, or '' when the name has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** What the pipeline does with a file of this name (null: nothing). */
export function documentKindOf(name: string): DocumentKind | null {
  return BY_EXTENSION[extensionOf(name)] ?? null;
}
