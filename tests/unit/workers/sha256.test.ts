import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE, MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { chunkCount, fingerprintInput } from '../../../common/transfer/protocol';
import { hashChunksInBackground } from '../../../workers/engine/chunk-digests';
import { createInThreadHashChunk, createSha256Hex, fingerprintOfChunkDigests, smallChunkDigest, SourceReadError, type ByteSource, type Sha256Hex } from '../../../workers/hash/sha256';
import { chunkDigestHex } from '../../support/chunk-digest';

const nodeSha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');
const toArrayBuffer = (data: Uint8Array) => data.slice().buffer;

/**
 * Every chunk digest of `source` the way the engine computes them: its one hashing loop
 * (chunk-digests.ts) over the hasher a hash worker runs (createInThreadHashChunk), two tasks at a time.
 */
function engineDigests(source: ByteSource, chunkSize: number, options: { sha256?: Sha256Hex; signal?: AbortSignal; onProgress?: (bytes: number) => void } = {}) {
  return hashChunksInBackground(source as unknown as Blob, chunkSize, {
    hashChunk: createInThreadHashChunk(options.sha256),
    concurrency: 2,
    signal: options.signal ?? new AbortController().signal,
    onProgress: options.onProgress ?? (() => undefined),
  }).all();
}

describe('chunk hashing', () => {
  const samples = [new Uint8Array(0), new TextEncoder().encode('abc'), new Uint8Array(randomBytes(1_000_003))];

  it('WebCrypto SHA-256 matches node:crypto', async () => {
    const sha256 = createSha256Hex();
    for (const s of samples) expect(await sha256(toArrayBuffer(s))).toBe(nodeSha256(s));
  });

  it('the hash-wasm fallback (no crypto.subtle) matches node:crypto, also when called concurrently', async () => {
    const sha256 = createSha256Hex(undefined);
    const results = await Promise.all(samples.map((s) => sha256(toArrayBuffer(s))));
    expect(results).toEqual(samples.map(nodeSha256));
  });

  it('the engine digests each chunk like node:crypto, in order, with WebCrypto and with hash-wasm, and reports progress', async () => {
    const data = new Uint8Array(randomBytes(3 * MIN_CHUNK_SIZE + 123));
    const expected = Array.from({ length: chunkCount(data.length, MIN_CHUNK_SIZE) }, (_, i) => chunkDigestHex(data.subarray(i * MIN_CHUNK_SIZE, (i + 1) * MIN_CHUNK_SIZE)));
    const progress: number[] = [];
    expect(await engineDigests(new Blob([data]), MIN_CHUNK_SIZE, { onProgress: (n) => progress.push(n) })).toEqual(expected);
    expect(await engineDigests(new Blob([data]), MIN_CHUNK_SIZE, { sha256: createSha256Hex(undefined) })).toEqual(expected);
    // Bytes digested so far, growing to the whole file (two tasks at a time: chunks may finish out of order).
    expect(progress).toHaveLength(expected.length);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(data.length);
  });

  it("the small-file batch's in-thread chunk digest matches the server's tree (node:crypto), leaf edges included", async () => {
    const digest = await smallChunkDigest();
    for (const size of [0, 1, 4096, 512 * 1024 - 1, 512 * 1024, 512 * 1024 + 1, 1024 * 1024]) {
      const bytes = new Uint8Array(randomBytes(size));
      expect(digest(bytes)).toBe(chunkDigestHex(bytes));
    }
  });

  it('an empty file has one empty chunk', async () => {
    expect(await engineDigests(new Blob([]), DEFAULT_CHUNK_SIZE)).toEqual([chunkDigestHex(new Uint8Array(0))]);
  });

  it('reads only one chunk per task, never the whole file', async () => {
    const size = 10 * MIN_CHUNK_SIZE;
    const reads: number[] = [];
    const source: ByteSource = {
      size,
      slice: (start, end) => ({ arrayBuffer: async () => (reads.push(end - start), new ArrayBuffer(end - start)) }),
    };
    await engineDigests(source, MIN_CHUNK_SIZE);
    expect(reads).toHaveLength(10);
    expect(Math.max(...reads)).toBe(MIN_CHUNK_SIZE);
  });

  it('stops on abort and turns read failures into SourceReadError', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engineDigests(new Blob(['x']), MIN_CHUNK_SIZE, { signal: controller.signal })).rejects.toThrow();
    const broken: ByteSource = { size: 5, slice: () => ({ arrayBuffer: () => Promise.reject(new Error('NotReadableError')) }) };
    await expect(engineDigests(broken, MIN_CHUNK_SIZE)).rejects.toBeInstanceOf(SourceReadError);
  });
});

describe('file fingerprint', () => {
  it('is SHA-256 over the concatenated raw chunk digests', async () => {
    const digests = [nodeSha256(new TextEncoder().encode('a')), nodeSha256(new TextEncoder().encode('b'))];
    const expected = createHash('sha256')
      .update(Buffer.concat(digests.map((d) => Buffer.from(d, 'hex'))))
      .digest('hex');
    expect(await fingerprintOfChunkDigests(digests)).toBe(expected);
    expect(await fingerprintOfChunkDigests(digests, createSha256Hex(undefined))).toBe(expected);
    expect(fingerprintInput(digests)).toHaveLength(64);
  });

  it('depends on chunk order', async () => {
    const a = nodeSha256(new Uint8Array([1]));
    const b = nodeSha256(new Uint8Array([2]));
    expect(await fingerprintOfChunkDigests([a, b])).not.toBe(await fingerprintOfChunkDigests([b, a]));
  });

  it('hashes the chunks named `first` before the others (a resumed upload sends at once), and still gives every digest', async () => {
    const data = new Uint8Array(randomBytes(5 * MIN_CHUNK_SIZE));
    const hashChunk = createInThreadHashChunk();
    const order: number[] = [];
    const digests = hashChunksInBackground(new Blob([data]), MIN_CHUNK_SIZE, {
      hashChunk: async (source, start, end, signal) => {
        order.push(start / MIN_CHUNK_SIZE);
        return hashChunk(source, start, end, signal);
      },
      concurrency: 1,
      signal: new AbortController().signal,
      onProgress: () => undefined,
      first: [3, 4],
    });
    expect(await digests.all()).toEqual(Array.from({ length: 5 }, (_, i) => chunkDigestHex(data.subarray(i * MIN_CHUNK_SIZE, (i + 1) * MIN_CHUNK_SIZE))));
    expect(order).toEqual([3, 4, 0, 1, 2]);
  });
});

