import type { Readable } from 'node:stream';

/**
 * The bytes one chunk receives (PartialChunkFile.append): a whole request body (one chunk per
 * request), or one chunk's share of a body that carries several consecutive chunks (a range upload,
 * common/transfer/protocol.ts "Range uploads"), cut at the chunk boundary.
 */
export interface BodySource {
  /** The pieces, in order. Leaving the loop early never destroys the request (its answer is still to be written). */
  pieces(): AsyncIterable<Buffer>;
  /** After the pieces ended: false when the body ended before its end (the connection closed early). */
  complete(): boolean;
  /**
   * Cuts the request as a dropped connection would (chunk-writers.ts: a writer gone quiet while another
   * request waits for its chunk): the pieces end early, or the iteration fails, and nothing is answered.
   */
  cut(): void;
  /**
   * Stops reading while the request stays open for its answer (chunk-writers.ts: the chunk's lock was
   * lost): the pieces end early, `complete()` is false, and the route answers a coded error, which
   * the server's lingering close (http/readable-refusals.ts) lets the client read. Unset: a lost lock cuts.
   */
  stop?(): void;
}

/** A request body that is one chunk (or its rest, from an offset). */
export function wholeBody(body: Readable): BodySource {
  let stopped = false;
  /** Ends the wait for the body's next piece (stop). */
  let wake: () => void = () => undefined;
  return {
    async *pieces() {
      const source = body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
      // A piece being waited for when the read stops is left to the lingering close, which drops the rest.
      for (;;) {
        if (stopped) return;
        // Not Promise.race with one promise that lives as long as the body: each race left a reaction on
        // it holding that race's result, so every piece of the body stayed reachable until the body ended
        // (a 16 MiB chunk held whole in memory, a 4 GiB body 4 GiB), and was collected only by a full GC.
        const next = await new Promise<IteratorResult<Buffer> | null>((resolve, reject) => {
          wake = () => resolve(null);
          source.next().then(resolve, reject);
        });
        wake = () => undefined;
        if (stopped || next === null || next.done) return;
        yield next.value;
      }
    },
    // An IncomingMessage whose connection closed early may end its iteration without an error.
    complete: () => !stopped && (body as Readable & { complete?: boolean }).complete !== false,
    cut: () => body.destroy(),
    stop: () => {
      stopped = true;
      wake();
    },
  };
}

/**
 * Cuts one request body into consecutive segments of given lengths, as it arrives: a piece that
 * straddles a boundary is split (no copy, subarrays), the rest kept for the next segment. Segments
 * must be read one after the other, each to its end (or until it reports itself cut).
 * A segment's `stop` stops the whole body's read (the chunk's lock was lost: the request answers a
 * coded error, and its later chunks would only be sent again anyway): the segment being read ends
 * early and incomplete, later ones are empty; the request stays open for its answer.
 */
export class BodySegments {
  private readonly source: AsyncIterator<Buffer>;
  private leftover: Buffer | null = null;
  private ended = false;
  /** Ends the wait for the body's next piece (stop): that piece is then left to the lingering close. */
  private wake: () => void = () => undefined;

  constructor(private readonly body: Readable) {
    this.source = body.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  }

  /**
   * The next `length` bytes. Its pieces end after exactly `length` bytes, or earlier when the body
   * ends (then `complete()` is false); a stream error is thrown from the iteration like a whole body's.
   */
  next(length: number): BodySource {
    let delivered = 0;
    const take = (max: number) => this.take(max);
    const pieces: AsyncIterable<Buffer> = {
      [Symbol.asyncIterator]: () => ({
        // Not an async generator: returning from the consumer's loop must not return the shared iterator.
        async next(): Promise<IteratorResult<Buffer>> {
          if (delivered >= length) return { done: true, value: undefined };
          const piece = await take(length - delivered);
          if (!piece) return { done: true, value: undefined };
          delivered += piece.length;
          return { done: false, value: piece };
        },
      }),
    };
    return {
      pieces: () => pieces,
      complete: () => delivered === length,
      // The whole request goes: its later chunks would only be sent again anyway.
      cut: () => this.body.destroy(),
      stop: () => this.stop(),
    };
  }

  private stop(): void {
    this.ended = true;
    this.leftover = null;
    this.wake();
  }

  /** Up to `max` bytes: the leftover first, else the body's next piece (null at its end). */
  private async take(max: number): Promise<Buffer | null> {
    let piece = this.leftover;
    this.leftover = null;
    while (!piece || piece.length === 0) {
      if (this.ended) return null;
      // Not a race with one long-lived promise: each piece would leave a reaction on it for the body's life.
      const next = await new Promise<IteratorResult<Buffer> | null>((resolve, reject) => {
        this.wake = () => resolve(null);
        this.source.next().then(resolve, reject);
      });
      this.wake = () => undefined;
      // Stopped meanwhile: a piece that came with the stop is dropped like the rest of the body.
      if (this.ended) return null;
      if (next === null || next.done) {
        this.ended = true;
        return null;
      }
      piece = next.value;
    }
    if (piece.length > max) {
      this.leftover = piece.subarray(max);
      return piece.subarray(0, max);
    }
    return piece;
  }
}
