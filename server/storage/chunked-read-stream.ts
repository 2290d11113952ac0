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
export class SpansReadStream extends Readable {
  private index = 0;
  private handle: fsp.FileHandle | null = null;
  private position = 0;

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
        this.handle = await fsp.open(span.file, 'r');
        this.position = span.from;
      }
      const left = span.to - this.position + 1;
      if (left <= 0) {
        await this.closeHandle();
        this.index++;
        continue;
      }
      const buffer = Buffer.allocUnsafe(Math.min(LARGE_READ_BYTES, left));
      const { bytesRead } = await this.handle.read(buffer, 0, buffer.length, this.position);
      if (bytesRead === 0) throw new Error(`stored chunk ${span.file} ends before byte ${this.position}`);
      this.position += bytesRead;
      if (this.destroyed) return true;
      this.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
      return true;
    }
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.closeHandle().then(
      () => callback(err),
      (closeErr: unknown) => callback(err ?? (closeErr as Error)),
    );
  }
}
