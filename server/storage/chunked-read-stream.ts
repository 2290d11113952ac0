import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

/**
 * One read(2) per MiB: 64 KiB reads (createReadStream's default) cost the server ~8 times as many
 * thread-pool round trips and socket writes per GiB, CPU the browser's download shares the cores with.
 */
export const LARGE_READ_BYTES = 1024 * 1024;
/** Read-ahead: the next reads run while the socket sends the previous ones. */
const READ_AHEAD_BYTES = 4 * LARGE_READ_BYTES;
/**
 * Read buffers a stream keeps once they come back (reclaim): its read-ahead and what the socket still
 * holds, so a download's steady state allocates nothing.
 */
const SPARE_READ_BUFFERS = 8;

/**
 * A stream whose pieces may be handed back once their reader is done with them, to be read into again.
 * Why: every fresh 1 MiB Buffer is external memory, and V8 counts what was allocated since its last
 * mark-compact against the old generation's limit — a download of fresh reads kept the server's heap
 * at that limit and its collector marking without end (docs/object-store.md, "The old generation's
 * growth").
 */
export interface ReclaimableReads {
  /**
   * `piece` — exactly as the stream pushed it — will not be read again by anyone: the stream may
   * overwrite it. Anything else is ignored.
   */
  reclaim(piece: Uint8Array): void;
}

export const isReclaimable = (stream: unknown): stream is ReclaimableReads => typeof (stream as Partial<ReclaimableReads> | null)?.reclaim === 'function';

/** Which file holds which part of the range: `from`..`to` inclusive within `file`. */
export interface FileSpan {
  file: string;
  from: number;
  to: number;
}

/** The spans of chunk files (named 0, 1, …, each `chunkSize` long) covering bytes `start`..`end` inclusive. */
export function chunkSpans(dir: string, chunkSize: number, start: number, end: number): FileSpan[] {
  const spans: FileSpan[] = [];
  for (let i = Math.floor(start / chunkSize); i <= Math.floor(end / chunkSize); i++) {
    const base = i * chunkSize;
    spans.push({ file: path.join(dir, String(i)), from: Math.max(start, base) - base, to: Math.min(end, base + chunkSize - 1) - base });
  }
  return spans;
}

/**
 * Streams several file spans one after another with large reads and read-ahead, opening each file
 * only when its turn comes (a blob of many chunks never holds many descriptors). A file shorter than
 * its span is an error (a damaged store), never a silently short body.
 */
export class SpansReadStream extends Readable implements ReclaimableReads {
  private index = 0;
  private handle: fsp.FileHandle | null = null;
  private position = 0;
  /**
   * Full-size read buffers pushed and not reclaimed yet, by their memory: the piece as pushed. Weak: a
   * reader that never reclaims (a ZIP, a fingerprint pass) leaves them to the collector as before.
   */
  private readonly lent = new WeakMap<ArrayBufferLike, { buffer: Buffer; piece: Buffer }>();
  private readonly spare: Buffer[] = [];

  constructor(private readonly spans: readonly FileSpan[]) {
    super({ highWaterMark: READ_AHEAD_BYTES });
  }

  override _read(): void {
    this.readNext().then(
      (more) => {
        if (!more) this.push(null);
      },
      (err: unknown) => this.destroy(err as Error),
    );
  }

  /** Reads and pushes one piece; false when every span has been sent. */
  private async readNext(): Promise<boolean> {
    for (;;) {
      const span = this.spans[this.index];
      if (!span) return false;
      if (!this.handle) {
        const handle = await fsp.open(span.file, 'r');
        // Destroyed while the file was opening (a client that left at once, a seek): _destroy found no
        // handle to close, so this one is closed here, or it would stay open until the collector's turn.
        if (this.destroyed) {
          await handle.close();
          return true;
        }
        this.handle = handle;
        this.position = span.from;
      }
      const left = span.to - this.position + 1;
      if (left <= 0) {
        await this.closeHandle();
        this.index++;
        continue;
      }
      const want = Math.min(LARGE_READ_BYTES, left);
      const buffer = this.spare.pop() ?? Buffer.allocUnsafeSlow(want);
      const { bytesRead } = await this.handle.read(buffer, 0, want, this.position);
      if (bytesRead === 0) throw new Error(`stored chunk ${span.file} ends before byte ${this.position}`);
      this.position += bytesRead;
      if (this.destroyed) return true;
      const piece = bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead);
      if (buffer.length === LARGE_READ_BYTES) this.lent.set(buffer.buffer, { buffer, piece });
      this.push(piece);
      return true;
    }
  }

  reclaim(piece: Uint8Array): void {
    const loan = this.lent.get(piece.buffer);
    // Only the very piece pushed: a part of it (someone cut it) may have other parts still unread.
    if (!loan || loan.piece.byteOffset !== piece.byteOffset || loan.piece.byteLength !== piece.byteLength) return;
    this.lent.delete(piece.buffer);
    if (!this.destroyed && this.spare.length < SPARE_READ_BUFFERS) this.spare.push(loan.buffer);
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.spare.length = 0;
    this.closeHandle().then(
      () => callback(err),
      (closeErr: unknown) => callback(err ?? (closeErr as Error)),
    );
  }
}
