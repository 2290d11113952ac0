import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';
import { readingAhead, ZIP_READ_AHEAD, type ZipReadAhead } from './zip-read-ahead';

/** One archive member: a folder (name ends with '/') or a file whose bytes `open()` streams. */
export interface ZipMember {
  /** Path inside the archive, '/'-separated, no leading '/', no '..' (callers sanitise). */
  name: string;
  isDir: boolean;
  size: number;
  modifiedAt: number;
  /** The bytes; aborting `signal` stops the read (a request in flight to the store included). */
  open?: (signal?: AbortSignal) => AsyncIterable<Uint8Array>;
  /** Deflate this entry (text-like content); stored otherwise. */
  deflate?: boolean;
}

/** Deflating pays off only for content that is not compressed already; bounded so ZIP64 decisions stay exact. */
export const DEFLATE_MAX_SIZE = 1024 * 1024 * 1024;

/**
 * Deflates a byte stream with back-pressure both ways, handing each input piece to `onInput`
 * (the CRC is over the uncompressed bytes). Stopping early destroys the compressor and the source.
 */
async function* deflateStream(source: AsyncIterable<Uint8Array>, onInput: (piece: Buffer) => void): AsyncGenerator<Buffer> {
  const deflate = createDeflateRaw({ level: 6 });
  const closed = once(deflate, 'close').catch(() => undefined);
  const feed = (async () => {
    try {
      for await (const piece of source) {
        if (deflate.destroyed) return;
        const buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
        onInput(buf);
        if (!deflate.write(buf)) await Promise.race([once(deflate, 'drain'), closed]);
      }
      if (!deflate.destroyed) deflate.end();
    } catch (err) {
      deflate.destroy(err as Error);
    }
  })();
  try {
    for await (const out of deflate) yield out as Buffer;
  } finally {
    if (!deflate.destroyed) deflate.destroy();
    await feed;
  }
}

const U32 = 0xffffffff;
/** General purpose flags: bit 3 (sizes and CRC follow the data), bit 11 (names are UTF-8). */
const FLAGS = 0x0808;
const VERSION_ZIP64 = 45;
const VERSION_PLAIN = 20;

function dosTime(ms: number): { time: number; date: number } {
  const d = new Date(ms);
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

interface Written {
  name: Buffer;
  isDir: boolean;
  crc: number;
  /** Uncompressed and stored (compressed) sizes. */
  size: number;
  stored: number;
  method: number;
  offset: number;
  zip64: boolean;
  time: number;
  date: number;
}

/**
 * A streaming ZIP encoder (APPNOTE 6.3): stored or deflated entries, sizes and CRC-32 in a data descriptor
 * after each entry's bytes (so nothing is buffered or read twice), UTF-8 names, and ZIP64 records
 * for entries, offsets or counts beyond the 32/16-bit fields. Memory stays at one read buffer plus
 * the central directory, plus the small members read ahead (zip-read-ahead.ts: bounded in count and
 * bytes, so many small objects do not cost a store round trip each, one after another).
 * `zip64Threshold` exists so tests can exercise ZIP64 on small data.
 */
export async function* zipStream(
  members: AsyncIterable<ZipMember> | Iterable<ZipMember>,
  opts: { zip64Threshold?: number; signal?: AbortSignal; readAhead?: ZipReadAhead } = {},
): AsyncGenerator<Buffer> {
  const limit = opts.zip64Threshold ?? U32;
  const written: Written[] = [];
  let offset = 0;
  for await (const m of readingAhead(members, opts.readAhead ?? ZIP_READ_AHEAD, opts.signal)) {
    opts.signal?.throwIfAborted();
    const name = Buffer.from(m.isDir && !m.name.endsWith('/') ? `${m.name}/` : m.name, 'utf8');
    const method = m.deflate && !m.isDir && m.size > 0 && m.size <= DEFLATE_MAX_SIZE ? 8 : 0;
    // Deflate never grows data by more than a few bytes per 16 KiB block: decided on the input size.
    const zip64 = m.size + (method ? 1024 + m.size / 1000 : 0) >= limit || offset >= limit;
    const { time, date } = dosTime(m.modifiedAt);
    // Local header: CRC and sizes are zero (bit 3); a ZIP64 entry announces itself with the extra field.
    const extra = zip64 ? Buffer.alloc(20) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2); // two 8-byte zero sizes
    }
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(method, 8); // 0 stored, 8 deflate
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(0, 14);
    header.writeUInt32LE(zip64 ? U32 : 0, 18);
    header.writeUInt32LE(zip64 ? U32 : 0, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(extra.length, 28);
    const entryOffset = offset;
    yield header;
    yield name;
    if (extra.length) yield extra;
    offset += header.length + name.length + extra.length;

    let crc = 0;
    let size = 0;
    let stored = 0;
    if (!m.isDir && m.open) {
      const count = (buf: Buffer) => {
        crc = crc32(buf, crc);
        size += buf.length;
      };
      if (method === 8) {
        for await (const out of deflateStream(m.open(opts.signal), count)) {
          opts.signal?.throwIfAborted();
          stored += out.length;
          yield out;
        }
      } else {
        for await (const piece of m.open(opts.signal)) {
          opts.signal?.throwIfAborted();
          const buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
          count(buf);
          stored += buf.length;
          yield buf;
        }
      }
    }
    if (size !== (m.isDir ? 0 : m.size)) throw new Error(`zip member ${m.name}: expected ${m.size} bytes, read ${size}`);
    offset += stored;
    const descriptor = Buffer.alloc(zip64 ? 24 : 16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    if (zip64) {
      descriptor.writeBigUInt64LE(BigInt(stored), 8);
      descriptor.writeBigUInt64LE(BigInt(size), 16);
    } else {
      descriptor.writeUInt32LE(stored, 8);
      descriptor.writeUInt32LE(size, 12);
    }
    yield descriptor;
    offset += descriptor.length;
    written.push({ name, isDir: m.isDir, crc: crc >>> 0, size, stored, method, offset: entryOffset, zip64: zip64 || entryOffset >= limit, time, date });
  }

  const cdStart = offset;
  for (const w of written) {
    const big = w.zip64 || w.size >= limit || w.stored >= limit || w.offset >= limit;
    const extra = big ? Buffer.alloc(28) : Buffer.alloc(0);
    if (big) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(w.size), 4);
      extra.writeBigUInt64LE(BigInt(w.stored), 12);
      extra.writeBigUInt64LE(BigInt(w.offset), 20);
    }
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE((3 << 8) | VERSION_ZIP64, 4); // made by: Unix, 4.5
    h.writeUInt16LE(big ? VERSION_ZIP64 : VERSION_PLAIN, 6);
    h.writeUInt16LE(FLAGS, 8);
    h.writeUInt16LE(w.method, 10);
    h.writeUInt16LE(w.time, 12);
    h.writeUInt16LE(w.date, 14);
    h.writeUInt32LE(w.crc, 16);
    h.writeUInt32LE(big ? U32 : w.stored, 20);
    h.writeUInt32LE(big ? U32 : w.size, 24);
    h.writeUInt16LE(w.name.length, 28);
    h.writeUInt16LE(extra.length, 30);
    h.writeUInt16LE(0, 32); // comment
    h.writeUInt16LE(0, 34); // disk
    h.writeUInt16LE(0, 36); // internal attributes
    // External attributes: Unix mode (regular file 0644 / directory 0755) plus the MS-DOS directory bit.
    h.writeUInt32LE(w.isDir ? ((0o40755 << 16) | 0x10) >>> 0 : (0o100644 << 16) >>> 0, 38);
    h.writeUInt32LE(big ? U32 : w.offset, 42);
    yield Buffer.concat([h, w.name, extra]);
    offset += h.length + w.name.length + extra.length;
  }
  const cdSize = offset - cdStart;
  const needZip64End = written.length >= 0xffff || cdStart >= limit || cdSize >= limit || written.some((w) => w.zip64);
  if (needZip64End) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeUInt16LE((3 << 8) | VERSION_ZIP64, 12);
    rec.writeUInt16LE(VERSION_ZIP64, 14);
    rec.writeUInt32LE(0, 16);
    rec.writeUInt32LE(0, 20);
    rec.writeBigUInt64LE(BigInt(written.length), 24);
    rec.writeBigUInt64LE(BigInt(written.length), 32);
    rec.writeBigUInt64LE(BigInt(cdSize), 40);
    rec.writeBigUInt64LE(BigInt(cdStart), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeUInt32LE(0, 4);
    locator.writeBigUInt64LE(BigInt(offset), 8);
    locator.writeUInt32LE(1, 16);
    yield rec;
    yield locator;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(Math.min(written.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(written.length, 0xffff), 10);
  end.writeUInt32LE(needZip64End ? U32 : cdSize, 12);
  end.writeUInt32LE(needZip64End ? U32 : cdStart, 16);
  end.writeUInt16LE(0, 20);
  yield end;
}
