import { promises as fsp } from 'node:fs';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/**
 * Whether an Office document's bytes are the container its extension promises, checked before
 * LibreOffice sees them (docs/documents.md, "Documents that are not what their name says").
 * LibreOffice detects formats by content and falls back to its plain-text filter for anything it
 * does not recognise: a broken `.docx` (or any text called `.pptx`) would otherwise come out as a
 * PDF of its raw bytes and be shown as if it were the document.
 */
export type Container =
  /** A ZIP package LibreOffice reads: OOXML (`[Content_Types].xml`) or OpenDocument (`mimetype`). */
  | 'package'
  /** An OLE compound file: Office 97–2003, WPS, and password-protected OOXML. */
  | 'ole'
  | 'rtf'
  /** HTML or XML: what Word and Excel write as 网页 / XML 表格 and what many systems export as .doc/.xls. */
  | 'markup'
  | 'other';

const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const HEAD_BYTES = 512;
const PACKAGE_MARKERS = ['[Content_Types].xml', 'mimetype'].map((name) => Buffer.from(name, 'utf8'));

type Family = { label: string; expected: string; accepts: readonly Container[] };

const OOXML: Omit<Family, 'label'> = { expected: 'Office Open XML 压缩包', accepts: ['package', 'ole'] };
const ODF: Omit<Family, 'label'> = { expected: 'OpenDocument 压缩包', accepts: ['package', 'ole'] };
const BINARY = 'Office 97–2003 复合文档';

/**
 * What each Office extension may hold. A package or an OLE file is accepted under any of them
 * (LibreOffice reads both by content: a .docx saved as .doc, an encrypted .xlsx, which is an OLE
 * file). Word and Excel's old extensions also take the other forms those programs and many web
 * systems write under them — RTF, HTML, XML; PowerPoint's take none.
 */
const FAMILIES: Record<string, Family> = {};
const add = (exts: string, family: Family): void => {
  for (const e of exts.split(' ')) FAMILIES[e] = family;
};
add('docx docm dotx', { label: 'Word', ...OOXML });
add('xlsx xlsm xltx', { label: 'Excel', ...OOXML });
add('pptx pptm ppsx potx', { label: 'PowerPoint', ...OOXML });
add('odt ott ods ots odp otp', { label: 'OpenDocument', ...ODF });
add('doc dot', { label: 'Word', expected: BINARY, accepts: ['ole', 'package', 'rtf', 'markup'] });
add('wps', { label: 'WPS 文字', expected: BINARY, accepts: ['ole', 'package', 'rtf', 'markup'] });
add('xls xlt', { label: 'Excel', expected: BINARY, accepts: ['ole', 'package', 'markup'] });
add('et', { label: 'WPS 表格', expected: BINARY, accepts: ['ole', 'package', 'markup'] });
add('ppt pps pot', { label: 'PowerPoint', expected: BINARY, accepts: ['ole', 'package'] });
add('dps', { label: 'WPS 演示', expected: BINARY, accepts: ['ole', 'package'] });
add('rtf', { label: 'RTF', expected: 'RTF 格式文本', accepts: ['rtf', 'ole', 'package'] });

const startsWith = (h: Uint8Array, bytes: readonly number[], at = 0): boolean => bytes.every((b, i) => h[at + i] === b);

/** What kind of container the first bytes (and, for a ZIP, its central directory) say a file is. */
export async function containerOf(file: string): Promise<Container> {
  const fh = await fsp.open(file, 'r');
  let head: Buffer;
  try {
    const size = (await fh.stat()).size;
    head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  if (startsWith(head, OLE_MAGIC)) return 'ole';
  if (startsWith(head, ZIP_LOCAL)) return (await isPackage(file)) ? 'package' : 'other';
  const text = skipBomAndSpace(head);
  if (text.startsWith('{\\rtf')) return 'rtf';
  if (text.startsWith('<')) return 'markup';
  return 'other';
}

function skipBomAndSpace(head: Buffer): string {
  const from = startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  return head.subarray(from).toString('latin1').trimStart();
}

/**
 * A ZIP whose central directory (read by yauzl, ZIP64 included) names `[Content_Types].xml` or
 * `mimetype` — read from the directory, not guessed from the bytes: a file merely starting with
 * "PK\x03\x04", a package cut short, or a ZIP of something else is not a package. Names are compared
 * as bytes (`decodeStrings: false`), so a member with an odd name is not an error; a directory yauzl
 * cannot read is.
 */
async function isPackage(file: string): Promise<boolean> {
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, decodeStrings: false, autoClose: true });
  } catch {
    return false;
  }
  return new Promise<boolean>((resolve) => {
    const done = (found: boolean): void => {
      zip.removeAllListeners();
      zip.on('error', () => undefined);
      if (zip.isOpen) zip.close();
      resolve(found);
    };
    zip.on('entry', (entry: Entry) => {
      const name = entry.fileName as unknown as Buffer;
      if (PACKAGE_MARKERS.some((marker) => marker.equals(name))) done(true);
      else zip.readEntry();
    });
    zip.on('end', () => done(false));
    zip.on('error', () => done(false));
    zip.readEntry();
  });
}

/**
 * Why a document with extension `ext` holding `container` is not converted (the Chinese reason the
 * admin card shows), or null when LibreOffice may have it. Extensions not listed are not judged.
 */
export function containerMismatch(ext: string, container: Container): string | null {
  const family = FAMILIES[ext];
  if (!family || family.accepts.includes(container)) return null;
  return `文件内容不是有效的 ${family.label} 文档（.${ext} 应为 ${family.expected}），可能已损坏或扩展名有误，未转换`;
}
