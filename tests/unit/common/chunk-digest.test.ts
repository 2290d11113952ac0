import { createHash, randomBytes } from 'node:crypto';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CHUNK_DIGEST_CJS, chunkDigestAsync, chunkDigestSync, DIGEST_LEAF_BYTES, leafRanges, StreamingChunkDigest, StreamingContentDigests } from '../../../common/transfer/chunk-digest';

const sha = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();
const hex = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** The CommonJS copy the worker threads run, evaluated the way they run it. */
function cjsDigest(chunk: Uint8Array, pieces: number[]): string {
  const context = vm.createContext({ createHash });
  vm.runInContext(CHUNK_DIGEST_CJS, context);
  const run = (name: string, ...args: unknown[]) => (context[name] as (...a: unknown[]) => unknown)(...args);
  const state = run('chunkDigestState');
  let offset = 0;
  for (const size of pieces) {
    run('chunkDigestUpdate', state, chunk.subarray(offset, offset + size));
    offset += size;
  }
  run('chunkDigestUpdate', state, chunk.subarray(offset));
  return run('chunkDigestHex', state) as string;
}

const L = DIGEST_LEAF_BYTES;
const sizes = [0, 1, 3, L - 1, L, L + 1, 2 * L, 3 * L + 12_345, 8 * L];

describe('chunk digest (tree of 512 KiB leaves)', () => {
  it('is SHA-256 over the leaf digests; one empty leaf for an empty chunk', () => {
    const chunk = new Uint8Array(randomBytes(2 * L + 5));
    const expected = hex(Buffer.concat([sha(chunk.subarray(0, L)), sha(chunk.subarray(L, 2 * L)), sha(chunk.subarray(2 * L))]));
    expect(chunkDigestSync(chunk, sha)).toBe(expected);
    expect(chunkDigestSync(new Uint8Array(0), sha)).toBe(hex(sha(new Uint8Array(0))));
    expect(leafRanges(0)).toEqual([[0, 0]]);
    expect(leafRanges(L)).toEqual([[0, L]]);
    expect(leafRanges(L + 1)).toEqual([[0, L], [L, L + 1]]);
  });

  it('differs from a plain SHA-256 of the chunk (an old client’s digest is refused, not misread)', () => {
    const chunk = new Uint8Array(randomBytes(L + 1));
    expect(chunkDigestSync(chunk, sha)).not.toBe(hex(chunk));
  });

  it('sync, async, streaming (any piece sizes) and the worker threads’ CommonJS copy agree', async () => {
    for (const size of sizes) {
      const chunk = new Uint8Array(randomBytes(size));
      const expected = chunkDigestSync(chunk, sha);
      expect(await chunkDigestAsync(chunk, async (d) => sha(d))).toBe(expected);
      for (const pieces of [[], [1], [7, L], [L - 3, 4, L + 9], [65_536, 65_536, 65_536]]) {
        const streaming = new StreamingChunkDigest(() => createHash('sha256'));
        let offset = 0;
        for (const p of pieces) {
          streaming.update(chunk.subarray(offset, offset + p));
          offset += p;
        }
        streaming.update(chunk.subarray(offset));
        expect(streaming.digest(), `size ${size}, pieces ${pieces.join(',')}`).toBe(expected);
        expect(cjsDigest(chunk, pieces), `cjs size ${size}`).toBe(expected);
      }
    }
  });

  it('a content fed in pieces is cut at the chunk size, each chunk digested as a whole chunk is', () => {
    const chunkSize = 2 * L + 100;
    for (const size of [0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 3 * chunkSize + 777]) {
      const content = new Uint8Array(randomBytes(size));
      const expected: string[] = [];
      for (let start = 0; start < size || expected.length === 0; start += chunkSize) {
        expected.push(chunkDigestSync(content.subarray(start, start + chunkSize), sha));
        if (size === 0) break;
      }
      for (const piece of [1_000, L, chunkSize, 5 * chunkSize]) {
        const digests = new StreamingContentDigests(chunkSize, () => createHash('sha256'));
        for (let start = 0; start < size; start += piece) digests.update(content.subarray(start, start + piece));
        expect(digests.finish(), `size ${size}, pieces of ${piece}`).toEqual(expected);
      }
    }
  });
});
