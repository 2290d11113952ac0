import type { Readable } from 'node:stream';

/** The body ended before the bytes a reader asked for. */
export class BodyTooShort extends Error {
  constructor() {
    super('request body ended early');
    this.name = 'BodyTooShort';
  }
}

/**
 * Reads a request body in pieces of exact lengths (a framed body: a length, a manifest, then files
 * one after another), without holding more than one piece plus one network chunk.
 */
export class ExactReader {
  private readonly source: AsyncIterator<Buffer>;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private ended = false;

  constructor(body: Readable) {
    this.source = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** The next `length` bytes; BodyTooShort if the body ends first. */
  async read(length: number): Promise<Buffer> {
    while (this.pendingBytes < length) {
      if (this.ended) throw new BodyTooShort();
      const next = await this.source.next();
      if (next.done) {
        this.ended = true;
        continue;
      }
      const piece = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    }
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    const out = all.subarray(0, length);
    const rest = all.subarray(length);
    this.pending = rest.length > 0 ? [rest] : [];
    this.pendingBytes = rest.length;
    return out;
  }

  /** True when nothing follows what was read. */
  async atEnd(): Promise<boolean> {
    if (this.pendingBytes > 0) return false;
    while (!this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else if (next.value.length > 0) {
        this.pending.push(Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value));
        this.pendingBytes += next.value.length;
        return false;
      }
    }
    return true;
  }
}
