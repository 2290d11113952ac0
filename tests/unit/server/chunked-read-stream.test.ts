/**
 * The chunked blob reader on real files: every range across chunk boundaries comes back byte for
 * byte in large pieces, a damaged store fails the stream instead of ending it short, and a reader
 * stopped early closes its file, even one still opening.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fsp, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chunkSpans, LARGE_READ_BYTES, SpansReadStream } from '../../../server/storage/chunked-read-stream';

const CHUNK = LARGE_READ_BYTES + 12_345; // not a multiple of the read size: reads end at chunk ends
const SIZE = 3 * CHUNK + 777; // a short last chunk
let dir: string;
let content: Buffer;

async function collect(stream: SpansReadStream): Promise<{ bytes: Buffer; pieces: number[] }> {
  const pieces: Buffer[] = [];
  for await (const piece of stream as AsyncIterable<Buffer>) pieces.push(piece);
  return { bytes: Buffer.concat(pieces), pieces: pieces.map((p) => p.length) };
}

const readRange = (start: number, end: number) => collect(new SpansReadStream(chunkSpans(dir, CHUNK, start, end)));

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'chunked-read-'));
  content = randomBytes(SIZE);
  for (let i = 0; i * CHUNK < SIZE; i++) await fsp.writeFile(path.join(dir, String(i)), content.subarray(i * CHUNK, (i + 1) * CHUNK));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SpansReadStream over chunk files', () => {
  it('streams the whole blob in reads of up to LARGE_READ_BYTES', async () => {
    const { bytes, pieces } = await readRange(0, SIZE - 1);
    expect(bytes.equals(content)).toBe(true);
    expect(Math.max(...pieces)).toBe(LARGE_READ_BYTES);
    // Two reads per full chunk (one large, one remainder), one for the short last chunk.
    expect(pieces).toHaveLength(3 * 2 + 1);
  });

  it('returns exactly the bytes of ranges inside, across and at the edges of chunks', async () => {
    const ranges: Array<[number, number]> = [
      [0, 0],
      [CHUNK - 1, CHUNK],
      [CHUNK - 10, 2 * CHUNK + 9],
      [2 * CHUNK, 3 * CHUNK - 1],
      [SIZE - 5, SIZE - 1],
      [5, SIZE - 5],
    ];
    for (const [start, end] of ranges) {
      const { bytes } = await readRange(start, end);
      expect(bytes.equals(content.subarray(start, end + 1)), `bytes ${start}-${end}`).toBe(true);
    }
  });

  it('fails the stream when a chunk file is shorter than the blob says', async () => {
    const damaged = mkdtempSync(path.join(os.tmpdir(), 'chunked-read-damaged-'));
    try {
      await fsp.writeFile(path.join(damaged, '0'), content.subarray(0, CHUNK));
      await fsp.writeFile(path.join(damaged, '1'), content.subarray(CHUNK, CHUNK + 100));
      const stream = new SpansReadStream(chunkSpans(damaged, CHUNK, 0, 2 * CHUNK - 1));
      await expect(collect(stream)).rejects.toThrow(/ends before byte 100/);
    } finally {
      rmSync(damaged, { recursive: true, force: true });
    }
  });

  it('fails the stream when a chunk file is missing', async () => {
    const stream = new SpansReadStream(chunkSpans(path.join(dir, 'absent'), CHUNK, 0, 10));
    await expect(collect(stream)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.runIf(process.platform === 'linux')('closes its file when the reader stops early', async () => {
    // More spans than the read-ahead holds: once its buffer is full the stream stops reading and waits
    // with the current span's file open. (Checked only then: while it reads, it may be between two files.)
    const spans = Array.from({ length: 10 }, () => ({ file: path.join(dir, '0'), from: 0, to: CHUNK - 1 }));
    const stream = new SpansReadStream(spans);
    stream.on('readable', () => undefined); // paused mode: the stream fills its buffer, nothing is taken
    while (stream.readableLength < stream.readableHighWaterMark) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setImmediate(resolve)); // the read that filled the buffer has returned
    expect(await openFilesUnder(dir)).toBe(1);
    const first = stream.read(16) as Buffer;
    expect(first.equals(content.subarray(0, 16))).toBe(true);
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    expect(await openFilesUnder(dir)).toBe(0);
  });

  it.runIf(process.platform === 'linux')('closes a file that was still opening when the reader was destroyed', async () => {
    // A client that leaves at once (or seeks): the stream is destroyed while its first open is pending.
    const opening: Array<Promise<unknown>> = [];
    const open = fsp.open.bind(fsp);
    vi.spyOn(fsp, 'open').mockImplementation((...args: Parameters<typeof fsp.open>) => {
      const opened = open(...args);
      opening.push(opened);
      return opened;
    });
    const stream = new SpansReadStream(chunkSpans(dir, CHUNK, 0, SIZE - 1));
    stream.read(0); // starts the first read: the open is under way
    expect(opening).toHaveLength(1);
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await opening[0];
    // Its close is under way now; a leaked handle stays open (the stream, still referenced here, holds it).
    const deadline = Date.now() + 2_000;
    while ((await openFilesUnder(dir)) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await openFilesUnder(dir)).toBe(0);
  });
});

afterEach(() => vi.restoreAllMocks());

/**
 * Each piece as the stream pushed it, in flowing mode as a pipe takes them (an async iterator's read()
 * may join buffered pieces into a new buffer).
 */
function eachPiece(stream: SpansReadStream, take: (piece: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.on('data', (piece: Buffer) => {
      try {
        take(piece);
      } catch (error) {
        stream.destroy(error as Error);
      }
    });
    stream.once('end', resolve);
    stream.once('error', reject);
  });
}

describe('SpansReadStream, pieces handed back (reclaim)', () => {
  // 32 reads: the whole of chunk 0 (one large read and its remainder), sixteen times.
  const spans = () => Array.from({ length: 16 }, () => ({ file: path.join(dir, '0'), from: 0, to: CHUNK - 1 }));
  const expectedBytes = () => Buffer.concat(Array.from({ length: 16 }, () => content.subarray(0, CHUNK)));

  it('reads into a reclaimed piece again, and never into one still held', async () => {
    const stream = new SpansReadStream(spans());
    const expected = expectedBytes();
    const memories = new Set<ArrayBufferLike>();
    let offset = 0;
    let held: { piece: Buffer; copy: Buffer } | undefined;
    await eachPiece(stream, (piece) => {
      expect(piece.equals(expected.subarray(offset, offset + piece.length)), `bytes at ${offset}`).toBe(true);
      offset += piece.length;
      memories.add(piece.buffer);
      // The first full piece is kept to the end, unreclaimed: nothing may be read into it.
      if (!held && piece.length === LARGE_READ_BYTES) held = { piece, copy: Buffer.from(piece) };
      else stream.reclaim(piece);
    });
    expect(offset).toBe(expected.length);
    expect(held!.piece.equals(held!.copy)).toBe(true);
    // 32 pieces in the read-ahead's few buffers (once spare ones exist, remainders are read into them too).
    expect(memories.size).toBeLessThanOrEqual(10);
  });

  it('ignores a part of a piece and what it did not push', async () => {
    const stream = new SpansReadStream(spans());
    const kept: Array<{ piece: Buffer; copy: Buffer }> = [];
    await eachPiece(stream, (piece) => {
      kept.push({ piece, copy: Buffer.from(piece) });
      stream.reclaim(piece.subarray(0, 10)); // someone cut it: the rest may not be sent yet
      stream.reclaim(Buffer.from(piece)); // same bytes, other memory
    });
    expect(kept.every(({ piece, copy }) => piece.equals(copy))).toBe(true);
    expect(new Set(kept.map(({ piece }) => piece.buffer)).size).toBe(kept.length);
  });
});

/** How many of this process's descriptors point into `folder` (Linux: /proc/self/fd). */
async function openFilesUnder(folder: string): Promise<number> {
  let count = 0;
  for (const fd of await fsp.readdir('/proc/self/fd')) {
    const target = await fsp.readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(folder + path.sep)) count++;
  }
  return count;
}
