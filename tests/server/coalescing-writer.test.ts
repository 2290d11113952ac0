/**
 * The chunk writer: pieces of any size are gathered into pooled shared buffers, written in order,
 * and hashed in place on a hash thread; a buffer goes back to the pool only once the thread has read
 * it, so reuse never changes bytes still being hashed.
 */
import { randomBytes } from 'node:crypto';
import { chunkDigestHex } from '../support/chunk-digest';
import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COALESCE_BYTES, CoalescingWriter, MAX_BUFFERS_BEING_READ } from '../../server/storage/coalescing-writer';
import { HashThreads } from '../../server/storage/hash-threads';
import { SharedBufferPool } from '../../server/storage/shared-buffers';

let dir: string;
const threads = new HashThreads(2);

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'writer-'));
});
afterAll(async () => {
  await threads.close();
  await fsp.rm(dir, { recursive: true, force: true });
});

/** Cuts `content` into pieces of irregular sizes, some larger than a gathering buffer. */
function piecesOf(content: Buffer): Buffer[] {
  const sizes = [1, 65_536, 7, COALESCE_BYTES + 3, 16_384, 2 * COALESCE_BYTES, 999];
  const pieces: Buffer[] = [];
  for (let at = 0, i = 0; at < content.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, content.length - at);
    // A copy, as a socket hands over its own buffers: the writer must not keep a reference.
    pieces.push(Buffer.from(content.subarray(at, at + n)));
    at += n;
  }
  return pieces;
}

async function writeHashed(file: string, content: Buffer, pool: SharedBufferPool, position = 0): Promise<string> {
  const handle = await fsp.open(file, position === 0 ? 'w' : 'r+');
  const hasher = threads.create();
  const writer = new CoalescingWriter(handle, position, (data) => hasher.update(data), pool);
  try {
    for (const piece of piecesOf(content)) await writer.write(piece);
    await writer.flush();
  } finally {
    writer.release();
    await handle.close();
  }
  return hasher.digest();
}

describe('CoalescingWriter with shared buffers', () => {
  it('writes and hashes every byte in order, and reuses its buffers', async () => {
    const pool = new SharedBufferPool(COALESCE_BYTES);
    const taken = new Set<ArrayBufferLike>();
    const take = pool.take.bind(pool);
    pool.take = () => {
      const buffer = take();
      taken.add(buffer.buffer);
      return buffer;
    };
    for (let round = 0; round < 3; round++) {
      const content = randomBytes(5 * COALESCE_BYTES + 12_345);
      const file = path.join(dir, `round-${round}.bin`);
      const digest = await writeHashed(file, content, pool);
      expect(digest).toBe(chunkDigestHex(content));
      expect((await fsp.readFile(file)).equals(content)).toBe(true);
    }
    // 18 MiB went through; only the few buffers in flight at once were ever made.
    expect(taken.size).toBeGreaterThan(0);
    expect(taken.size).toBeLessThanOrEqual(6);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the last acknowledgements
    expect(pool.freeCount).toBe(taken.size);
  });

  it('waits for a consumer that falls behind instead of taking ever more buffers', async () => {
    const pool = new SharedBufferPool(COALESCE_BYTES);
    const handle = await fsp.open(path.join(dir, 'slow-consumer.bin'), 'w');
    // A consumer that reads nothing until told to: every written buffer stays in use.
    const reads: Array<() => void> = [];
    const writer = new CoalescingWriter(handle, 0, () => new Promise<void>((resolve) => reads.push(resolve)), pool);
    try {
      const piece = Buffer.alloc(COALESCE_BYTES, 1);
      for (let i = 0; i < MAX_BUFFERS_BEING_READ; i++) await writer.write(piece);
      expect(reads).toHaveLength(MAX_BUFFERS_BEING_READ);
      // One more buffer's worth: written, handed over, and then the writer waits for the oldest read.
      let returned = false;
      const next = writer.write(piece).then(() => (returned = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(reads).toHaveLength(MAX_BUFFERS_BEING_READ + 1);
      expect(returned).toBe(false);
      reads[0]!();
      await next;
      expect(returned).toBe(true);
      for (const read of reads) read();
    } finally {
      writer.release();
      await handle.close();
    }
  });

  it('appends from a position (a resumed partial) and writes nothing twice', async () => {
    const pool = new SharedBufferPool(COALESCE_BYTES);
    const head = randomBytes(300_000);
    const rest = randomBytes(COALESCE_BYTES + 1);
    const file = path.join(dir, 'resumed.bin');
    await fsp.writeFile(file, head);
    await writeHashed(file, rest, pool, head.length);
    expect((await fsp.readFile(file)).equals(Buffer.concat([head, rest]))).toBe(true);
  });

  it('release() drops unflushed bytes and returns the buffer', async () => {
    const pool = new SharedBufferPool(COALESCE_BYTES);
    const file = path.join(dir, 'dropped.bin');
    const handle = await fsp.open(file, 'w');
    const writer = new CoalescingWriter(handle, 0, undefined, pool);
    await writer.write(randomBytes(1000));
    writer.release();
    await handle.close();
    expect((await fsp.stat(file)).size).toBe(0);
    expect(pool.freeCount).toBe(1);
  });
});
