/**
 * BodySegments (server/storage/body-source.ts): one request body cut into consecutive chunk segments
 * as it arrives — pieces straddling a boundary are split, a body that ends early reports the segment
 * it cut as incomplete, a stream error reaches the segment being read, and leaving a segment's loop
 * early neither destroys the body nor loses the bytes after it. Neither holds a piece once it was read
 * (the server's memory must not grow with a body's length).
 */
import { PassThrough, Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { BodySegments, wholeBody, type BodySource } from '../../../server/storage/body-source';

async function collect(source: BodySource): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const piece of source.pieces()) parts.push(piece);
  return Buffer.concat(parts);
}

const bytes = (n: number, from = 0): Buffer => Buffer.from(Array.from({ length: n }, (_, i) => (from + i) % 251));

describe('BodySegments', () => {
  it('cuts pieces of any size at the segment boundaries, byte-exact', async () => {
    const all = bytes(1000);
    // Pieces of 7, 300, 1, 450, 242 bytes: boundaries at 250 and 500 and 750 fall inside pieces.
    const pieces: Buffer[] = [];
    let at = 0;
    for (const n of [7, 300, 1, 450, 242]) {
      pieces.push(all.subarray(at, at + n));
      at += n;
    }
    const segments = new BodySegments(Readable.from(pieces, { objectMode: false }));
    for (let i = 0; i < 4; i++) {
      const segment = segments.next(250);
      expect((await collect(segment)).equals(all.subarray(i * 250, (i + 1) * 250))).toBe(true);
      expect(segment.complete()).toBe(true);
    }
  });

  it('a body that ends early: the segment it cut is incomplete, later ones are empty and incomplete', async () => {
    const segments = new BodySegments(Readable.from([bytes(300)]));
    const first = segments.next(200);
    expect((await collect(first)).length).toBe(200);
    expect(first.complete()).toBe(true);
    const cut = segments.next(200);
    expect((await collect(cut)).length).toBe(100);
    expect(cut.complete()).toBe(false);
    const after = segments.next(50);
    expect((await collect(after)).length).toBe(0);
    expect(after.complete()).toBe(false);
  });

  it('a stream error is thrown from the segment being read', async () => {
    const body = new PassThrough();
    const segments = new BodySegments(body);
    body.write(bytes(100));
    const segment = segments.next(200);
    const reading = collect(segment);
    setTimeout(() => body.destroy(new Error('connection reset')), 10);
    await expect(reading).rejects.toThrow('connection reset');
    expect(segment.complete()).toBe(false);
  });

  it('leaving a segment loop early keeps the body open and its later bytes for the next segment', async () => {
    const all = bytes(400);
    const body = Readable.from([all.subarray(0, 150), all.subarray(150)]);
    const segments = new BodySegments(body);
    const first = segments.next(300);
    for await (const piece of first.pieces()) {
      expect(piece.length).toBe(150);
      break;
    }
    expect(body.destroyed).toBe(false);
    expect((await collect(segments.next(250))).equals(all.subarray(150))).toBe(true);
  });

  it("stop (the chunk's lock lost): the segment being read ends early and incomplete, the body stays open, later segments are empty", async () => {
    const body = new PassThrough();
    const segments = new BodySegments(body);
    body.write(bytes(100));
    const segment = segments.next(300);
    const parts: Buffer[] = [];
    const reading = (async () => {
      for await (const piece of segment.pieces()) parts.push(piece);
    })();
    // Waiting for the body's next piece when the read stops: the wait ends, nothing more is delivered.
    await new Promise((r) => setTimeout(r, 10));
    segment.stop!();
    await reading;
    expect(Buffer.concat(parts).length).toBe(100);
    expect(segment.complete()).toBe(false);
    expect(body.destroyed).toBe(false);
    body.write(bytes(100));
    const after = segments.next(50);
    expect((await collect(after)).length).toBe(0);
    expect(after.complete()).toBe(false);
  });

  it('stop between pieces: the piece still held (past a boundary) is not delivered either', async () => {
    const segments = new BodySegments(Readable.from([bytes(300)]));
    const first = segments.next(200);
    expect((await collect(first)).length).toBe(200);
    first.stop!();
    const second = segments.next(100);
    expect((await collect(second)).length).toBe(0);
    expect(second.complete()).toBe(false);
  });

  it('an empty segment (an empty chunk) is complete without reading', async () => {
    const segments = new BodySegments(Readable.from([]));
    const empty = segments.next(0);
    expect((await collect(empty)).length).toBe(0);
    expect(empty.complete()).toBe(true);
  });
});

describe('wholeBody', () => {
  it('yields the body and reports a request closed before its end as incomplete', async () => {
    const body = Readable.from([bytes(10)]) as Readable & { complete?: boolean };
    expect((await collect(wholeBody(body))).length).toBe(10);
    expect(wholeBody(body).complete()).toBe(true);
    body.complete = false;
    expect(wholeBody(body).complete()).toBe(false);
  });
});

/** A full collection (V8's `gc`, exposed to a new context). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * Reads `source` while `body` is fed piece by piece, keeping only a WeakRef to each piece read: once
 * half the pieces were read, how many of those read before are still reachable after a collection.
 */
async function piecesStillHeld(body: PassThrough, source: BodySource): Promise<number> {
  const seen: WeakRef<Buffer>[] = [];
  const iterator = source.pieces()[Symbol.asyncIterator]();
  for (let i = 0; i < 20; i++) {
    body.write(Buffer.alloc(64 * 1024, i));
    const next = await iterator.next();
    seen.push(new WeakRef(next.value as Buffer));
  }
  // WeakRef targets stay alive until the current job ends: collect from a later task.
  await new Promise((r) => setTimeout(r, 0));
  collectGarbage();
  const held = seen.slice(0, -1).filter((ref) => ref.deref() !== undefined).length;
  body.end();
  while (!(await iterator.next()).done);
  return held;
}

describe('pieces read are not held while the body goes on', () => {
  it('wholeBody', async () => {
    const body = new PassThrough();
    expect(await piecesStillHeld(body, wholeBody(body))).toBe(0);
  });

  it('BodySegments', async () => {
    const body = new PassThrough();
    expect(await piecesStillHeld(body, new BodySegments(body).next(64 * 1024 * 40))).toBe(0);
  });
});
