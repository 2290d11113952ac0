import type { promises as fsp } from 'node:fs';
import { dataRuns, SPARSE_BLOCK } from '../../common/files/sparse';
import { SharedBufferPool } from './shared-buffers';

const ZERO_BLOCK = Buffer.alloc(SPARSE_BLOCK);

/**
 * An HTTP body arrives in pieces of 16–64 KiB; writing each with its own `write` call costs a trip
 * through libuv's thread pool per piece, where fsyncs of other requests queue too. Gathering pieces
 * into writes of this size measured ~10 % faster uploads (bench "upload"), at this much memory per
 * request being received.
 */
export const COALESCE_BYTES = 1024 * 1024;

/**
 * Written buffers one writer lets a consumer still be reading before its next flush waits for the
 * oldest: a hash thread that falls behind (every core busy) slows the body it hashes instead of
 * holding one more megabyte of memory per megabyte received. Never reached on an idle core: a
 * thread hashes a buffer in ~0.6 ms.
 */
export const MAX_BUFFERS_BEING_READ = 8;

/** The gathering buffers of every writer of this process (shared-buffers.ts). */
const sharedPool = new SharedBufferPool(COALESCE_BYTES);

/**
 * Receives each written buffer, in order (the chunk hasher). If it returns a promise, the bytes are
 * left untouched until it settles (the hash thread reads them in place); otherwise they are free again
 * as soon as it returns.
 */
export type WrittenConsumer = (data: Buffer) => Promise<void> | void;

/**
 * Appends pieces to a file from `position` on, in writes of COALESCE_BYTES (the last may be shorter),
 * gathered in pooled shared buffers. Call {@link release} when done (also after a failure), so the
 * buffer goes back to the pool.
 */
export class CoalescingWriter {
  private buffer: Buffer | null = null;
  private filled = 0;
  /** Buffers handed to the consumer and not yet back, oldest first (a consumer reads in order). */
  private readonly beingRead: Promise<void>[] = [];

  constructor(
    private readonly handle: fsp.FileHandle,
    /** Where the next write goes. */
    private position: number,
    private readonly onWritten?: WrittenConsumer,
    private readonly pool: SharedBufferPool = sharedPool,
  ) {}

  async write(piece: Buffer): Promise<void> {
    for (let taken = 0; taken < piece.length; ) {
      this.buffer ??= this.pool.take();
      const n = Math.min(piece.length - taken, this.buffer.length - this.filled);
      piece.copy(this.buffer, this.filled, taken, taken + n);
      this.filled += n;
      taken += n;
      if (this.filled === this.buffer.length) await this.flush();
    }
  }

  /** Writes whatever is gathered. Call it before fsync and before giving up on a cut body. */
  async flush(): Promise<void> {
    const buffer = this.buffer;
    if (!buffer || this.filled === 0) return;
    const data = buffer.subarray(0, this.filled);
    this.filled = 0;
    // Runs of zeros stay holes (common/files/sparse.ts): a sparse file's chunks hold no disk blocks for them.
    const { runs, holeAtEnd } = dataRuns(this.position, data.length, (start, end) => data.subarray(start, end).equals(ZERO_BLOCK));
    for (const [start, end] of runs) {
      for (let done = start; done < end; ) {
        done += (await this.handle.write(data, done, end - done, this.position + done)).bytesWritten;
      }
    }
    this.position += data.length;
    // Everything past `position` is new (a fresh or truncated partial): extending leaves a hole.
    if (holeAtEnd) await this.handle.truncate(this.position);
    const inUse = this.onWritten?.(data);
    if (inUse) {
      // Read in place by the consumer: the next bytes go to another buffer; this one returns later.
      this.buffer = null;
      this.beingRead.push(inUse.then(() => this.pool.give(buffer), () => undefined));
      if (this.beingRead.length > MAX_BUFFERS_BEING_READ) await this.beingRead.shift();
    }
  }

  /** Returns the gathering buffer to the pool; unflushed bytes are dropped. */
  release(): void {
    if (this.buffer) this.pool.give(this.buffer);
    this.buffer = null;
    this.filled = 0;
  }
}
