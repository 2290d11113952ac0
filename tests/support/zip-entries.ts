/**
 * A small reader of ZIP archives for tests: lists the entries from the central directory (ZIP64
 * aware) and returns the bytes of stored or deflated entries, so a test can check what a streamed
 * zip download really holds without trusting the code that wrote it.
 */
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  isDir: boolean;
  size: number;
  data: Buffer;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

function findEocd(zip: Buffer): number {
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) if (zip.readUInt32LE(i) === EOCD) return i;
  throw new Error('not a zip: no end of central directory');
}

export function readZip(zip: Buffer): ZipEntry[] {
  const eocd = findEocd(zip);
  let count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (offset === 0xffffffff || count === 0xffff) {
    const locator = eocd - 20;
    if (zip.readUInt32LE(locator) !== ZIP64_LOCATOR) throw new Error('zip64 locator missing');
    const z64 = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(z64) !== ZIP64_EOCD) throw new Error('zip64 end record missing');
    count = Number(zip.readBigUInt64LE(z64 + 32));
    offset = Number(zip.readBigUInt64LE(z64 + 48));
  }
  const entries: ZipEntry[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== CENTRAL) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(p + 10);
    let compressed = zip.readUInt32LE(p + 20);
    let size = zip.readUInt32LE(p + 24);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    let local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    // ZIP64 extra field: the 0xffffffff values, in order size, compressed, local offset.
    let e = p + 46 + nameLen;
    const extraEnd = e + extraLen;
    while (e + 4 <= extraEnd) {
      const id = zip.readUInt16LE(e);
      const len = zip.readUInt16LE(e + 2);
      if (id === 0x0001) {
        let q = e + 4;
        if (size === 0xffffffff) {
          size = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (compressed === 0xffffffff) {
          compressed = Number(zip.readBigUInt64LE(q));
          q += 8;
        }
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    if (zip.readUInt32LE(local) !== LOCAL) throw new Error(`bad local header for ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressed);
    const data = method === 0 ? Buffer.from(raw) : method === 8 ? inflateRawSync(raw) : Buffer.alloc(0);
    entries.push({ name, isDir: name.endsWith('/'), size, data });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}
