import { inflateRawSync } from 'node:zlib';

/**
 * An .xlsx is a ZIP. Before the spreadsheet library inflates it whole into memory, every member is
 * inflated here once with a hard cap on the output, so a 1 MB "zip bomb" that expands to gigabytes is
 * refused instead of exhausting the server's memory. This reads only the ZIP directory and inflates;
 * the spreadsheet itself is parsed by exceljs.
 */
export const ZIP_MAX_UNCOMPRESSED = 200 * 1024 * 1024;
export const ZIP_MAX_MEMBERS = 2000;

export class ZipRefused extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

export function looksLikeZip(buf: Buffer): boolean {
  return buf.length >= 4 && buf.readUInt32LE(0) === LOCAL_SIGNATURE;
}

function findEndOfDirectory(buf: Buffer): number {
  const lowest = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= lowest; i--) if (buf.readUInt32LE(i) === EOCD_SIGNATURE) return i;
  throw new ZipRefused('ZIP 目录缺失');
}

/** Throws ZipRefused when the archive is malformed, uses ZIP64 or unknown compression, or inflates past the caps. */
export function assertZipWithinLimits(buf: Buffer, maxTotal = ZIP_MAX_UNCOMPRESSED): void {
  const eocd = findEndOfDirectory(buf);
  const count = buf.readUInt16LE(eocd + 10);
  const dirOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || dirOffset === 0xffffffff) throw new ZipRefused('不支持 ZIP64');
  if (count > ZIP_MAX_MEMBERS) throw new ZipRefused('压缩包内文件过多');
  let remaining = maxTotal;
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipRefused('ZIP 目录损坏');
    const method = buf.readUInt16LE(at + 10);
    const compressed = buf.readUInt32LE(at + 20);
    const declared = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    at += 46 + nameLength + extraLength + commentLength;
    if (declared > remaining) throw new ZipRefused('文件解压后过大');
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL_SIGNATURE) throw new ZipRefused('ZIP 数据损坏');
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + compressed > buf.length) throw new ZipRefused('ZIP 数据不完整');
    const data = buf.subarray(start, start + compressed);
    let size: number;
    if (method === 0) size = compressed;
    else if (method === 8) {
      try {
        size = inflateRawSync(data, { maxOutputLength: Math.max(1, remaining) }).length;
      } catch (err) {
        throw new ZipRefused((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? '文件解压后过大' : 'ZIP 数据损坏');
      }
    } else throw new ZipRefused('不支持的压缩方式');
    remaining -= size;
    if (remaining < 0) throw new ZipRefused('文件解压后过大');
  }
}
