import { promises as fsp } from 'node:fs';

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
const ZIP_LOCAL = 0x04034b50;
const ZIP_END = 0x06054b50;
const ZIP_CENTRAL = 0x02014b50;
/** The end-of-central-directory record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH = 22 + 0xffff;
/** A central directory larger than this is not read: the package is taken as one (LibreOffice decides). */
const CENTRAL_MAX = 16 * 1024 * 1024;
const HEAD_BYTES = 512;
const PACKAGE_MARKERS = new Set(['[Content_Types].xml', 'mimetype']);

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
  try {
    const size = (await fh.stat()).size;
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await fh.read(head, 0, head.length, 0);
    if (startsWith(head, OLE_MAGIC)) return 'ole';
    if (head.length >= 4 && head.readUInt32LE(0) === ZIP_LOCAL) return (await isPackage(fh, size)) ? 'package' : 'other';
    const text = skipBomAndSpace(head);
    if (text.startsWith('{\\rtf')) return 'rtf';
    if (text.startsWith('<')) return 'markup';
    return 'other';
  } finally {
    await fh.close();
  }
}

function skipBomAndSpace(head: Buffer): string {
  const from = startsWith(head, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  return head.subarray(from).toString('latin1').trimStart();
}

/**
 * A ZIP whose end record can be found and whose central directory names `[Content_Types].xml` or
 * `mimetype` — read from the directory, not guessed from the bytes: a file merely starting with
 * "PK\x03\x04" is not a package. ZIP64 directories (offsets of 0xFFFFFFFF) are taken as packages.
 */
async function isPackage(fh: fsp.FileHandle, size: number): Promise<boolean> {
  const tailLength = Math.min(size, END_SEARCH);
  const tail = Buffer.alloc(tailLength);
  await fh.read(tail, 0, tailLength, size - tailLength);
  let end = -1;
  for (let i = tailLength - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === ZIP_END) {
      end = i;
      break;
    }
  }
  if (end < 0) return false;
  const entries = tail.readUInt16LE(end + 10);
  const centralSize = tail.readUInt32LE(end + 12);
  const centralAt = tail.readUInt32LE(end + 16);
  if (centralSize === 0xffffffff || centralAt === 0xffffffff || entries === 0xffff) return true;
  if (centralAt + centralSize > size || centralSize > CENTRAL_MAX) return false;
  const central = Buffer.alloc(centralSize);
  await fh.read(central, 0, centralSize, centralAt);
  for (let at = 0, n = 0; n < entries && at + 46 <= central.length; n++) {
    if (central.readUInt32LE(at) !== ZIP_CENTRAL) return false;
    const nameLength = central.readUInt16LE(at + 28);
    const name = central.toString('utf8', at + 46, at + 46 + nameLength);
    if (PACKAGE_MARKERS.has(name)) return true;
    at += 46 + nameLength + central.readUInt16LE(at + 30) + central.readUInt16LE(at + 32);
  }
  return false;
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
