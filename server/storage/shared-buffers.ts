/**
 * Reusable buffers over SharedArrayBuffer for the bytes of chunk bodies on their way to disk and to
 * a hash thread.
 *
 * A fresh buffer per megabyte received (and one more per megabyte moved to a hash thread) made about
 * 2 GiB of short-lived memory per GiB uploaded. Freeing it and faulting fresh pages in again cost the
 * server more CPU than hashing (per-thread CPU of the 1 GiB upload bench, 2-core machine). A shared
 * buffer is seen by the hash thread without a copy or a transfer, so one can be filled, written,
 * hashed and filled again.
 */

/** Buffers kept for reuse. More are made when more are in use at once (they are then collected). */
const MAX_FREE_BUFFERS = 16;

export class SharedBufferPool {
  private readonly free: Buffer[] = [];

  constructor(readonly bufferBytes: number) {}

  take(): Buffer {
    return this.free.pop() ?? Buffer.from(new SharedArrayBuffer(this.bufferBytes));
  }

  /** Back to the pool: only once nothing (a write, a hash thread) reads or writes it any more. */
  give(buffer: Buffer): void {
    if (buffer.buffer.byteLength === this.bufferBytes && this.free.length < MAX_FREE_BUFFERS) this.free.push(buffer);
  }

  /** Buffers waiting to be reused (tests). */
  get freeCount(): number {
    return this.free.length;
  }
}
