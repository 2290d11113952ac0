/**
 * Chunk digests (common/transfer/chunk-digest.ts: SHA-256 over the SHA-256 of each 512 KiB leaf) and
 * SHA-256, for the browser worker and for Node (bench, replay). WebCrypto is preferred: it runs
 * natively, and on leaves of 512 KiB it is fast in Chromium too (on inputs of 1 MiB and more it is
 * several times slower there: see chunk-digest.ts). WebCrypto is missing outside secure contexts
 * (plain http on a LAN address), so hash-wasm stays as the fallback. Neither needs streaming: every
 * leaf is digested whole, and the file fingerprint is a digest of the chunk digests (protocol.ts).
 */
import { createSHA256, type IHasher } from 'hash-wasm';
import { chunkDigestAsync, chunkDigestSync } from '../../common/transfer/chunk-digest';
import { bytesToHex, fingerprintInput, hexToBytes } from '../../common/transfer/protocol';

/**
 * Hex SHA-256 of one buffer. WebCrypto copies `data` when called, so the caller may reuse the buffer
 * once the promise settles (createInThreadHashChunk does: each task reuses its buffer for the next).
 */
export type Sha256Hex = (data: ArrayBuffer | Uint8Array<ArrayBuffer>) => Promise<string>;

/** Minimal WebCrypto surface we use, so a test can pass its own or `undefined`. */
export interface DigestProvider {
  digest(algorithm: 'SHA-256', data: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
}

function defaultSubtle(): DigestProvider | undefined {
  return (globalThis.crypto as Crypto | undefined)?.subtle;
}

/**
 * Returns a SHA-256 function backed by `subtle` when given (default: the global WebCrypto), else by
 * hash-wasm. The wasm hasher is created once and reused: init/update/digest run synchronously, so
 * concurrent callers never interleave on it.
 */
export function createSha256Hex(...provider: [subtle?: DigestProvider | null]): Sha256Hex {
  // An explicit `undefined`/`null` means "no WebCrypto" (the fallback test); no argument means the global.
  const subtle = provider.length > 0 ? provider[0] : defaultSubtle();
  if (subtle) {
    return async (data) => bytesToHex(new Uint8Array(await subtle.digest('SHA-256', data)));
  }
  let wasm: Promise<IHasher> | undefined;
  return async (data) => {
    wasm ??= createSHA256();
    const hasher = await wasm;
    hasher.init();
    hasher.update(data instanceof Uint8Array ? data : new Uint8Array(data));
    return hasher.digest('hex');
  };
}

/** Hex digest of one chunk (chunk-digest.ts). */
export type ChunkDigest = (chunk: Uint8Array<ArrayBuffer>) => Promise<string>;

let smallHasher: Promise<IHasher> | undefined;

/**
 * The chunk digest computed in this thread (hash-wasm), for many small inputs: a small-file batch
 * digests hundreds of files of a few KiB, where each WebCrypto call is two promise hops and a task on
 * another thread for microseconds of hashing (in Chromium ~0.4 ms of the engine's thread per 4 KiB
 * file, two calls each). Inputs of up to BATCH_FILE_MAX_BYTES (1 MiB) only; larger chunks keep
 * WebCrypto off the thread. One hasher, used synchronously, so callers never interleave on it.
 */
export async function smallChunkDigest(): Promise<(chunk: Uint8Array) => string> {
  const hasher = await (smallHasher ??= createSHA256());
  const sha256 = (data: Uint8Array): Uint8Array => {
    hasher.init();
    hasher.update(data);
    return hasher.digest('binary');
  };
  return (chunk) => chunkDigestSync(chunk, sha256);
}

/** The chunk digest over `sha256`: its leaves digested concurrently, then their digests. */
export function chunkDigestWith(sha256: Sha256Hex): ChunkDigest {
  return (chunk) => chunkDigestAsync(chunk, async (data) => hexToBytes(await sha256(data)));
}

/** The file fingerprint: hex SHA-256 over the concatenated raw chunk digests (protocol.ts). */
export async function fingerprintOfChunkDigests(chunkDigests: readonly string[], sha256: Sha256Hex = createSha256Hex()): Promise<string> {
  const input = fingerprintInput(chunkDigests);
  // A fresh ArrayBuffer exactly covering the bytes (the view could in principle sit in a larger buffer).
  return sha256(input.slice().buffer);
}

/** What `slice()` of a source returns: a Blob (stream() preferred) or anything with arrayBuffer(). */
export interface ByteSlice {
  arrayBuffer(): Promise<ArrayBuffer>;
  stream?(): ReadableStream<Uint8Array>;
}

/** Anything sliceable like a Blob: a browser File, or a Node Blob from fs.openAsBlob. */
export interface ByteSource {
  readonly size: number;
  slice(start: number, end: number): ByteSlice;
}

/** Raised when the source cannot be read (file moved, deleted, or changed since it was picked). */
export class SourceReadError extends Error {
  constructor(cause: unknown) {
    super(`cannot read the source file: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SourceReadError';
  }
}

/** Reads bytes [start, end) of the source; only that range is ever held in memory. */
export async function readRange(source: ByteSource, start: number, end: number): Promise<ArrayBuffer> {
  try {
    return await source.slice(start, end).arrayBuffer();
  } catch (err) {
    throw new SourceReadError(err);
  }
}

/**
 * Reads bytes [start, end) into the memory of `into` (which must hold end - start bytes) and returns
 * the filled view. Streaming into a reused buffer avoids the fresh allocation + copy of
 * Blob.arrayBuffer(), which measured as the main cost of hashing (bench "hashing": 515 → 779 MB/s on
 * its own). Where the Blob's stream is a byte stream (Chromium, Node), a BYOB reader writes straight
 * into that memory instead of handing out pieces to copy: Node's reads went from 1,050 to 1,300 MB/s.
 * A BYOB read transfers the buffer, so `into` is detached afterwards: reuse the returned view's buffer.
 */
export async function readRangeInto(
  source: ByteSource,
  start: number,
  end: number,
  into: Uint8Array<ArrayBuffer>,
  onRead: (bytesRead: number) => void = () => undefined,
): Promise<Uint8Array<ArrayBuffer>> {
  const length = end - start;
  if (into.length < length) throw new RangeError('buffer smaller than the range');
  try {
    const slice = source.slice(start, end);
    if (typeof slice.stream !== 'function') {
      const bytes = new Uint8Array(await slice.arrayBuffer());
      into.set(bytes);
      return into.subarray(0, bytes.length);
    }
    const stream = slice.stream();
    const byob = byobReader(stream);
    if (byob) return await readByob(byob, into, length, onRead);
    const reader = stream.getReader();
    let offset = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (offset + value.length > length) throw new Error('the source returned more bytes than its size');
      into.set(value, offset);
      offset += value.length;
      onRead(offset);
    }
    return into.subarray(0, offset);
  } catch (err) {
    throw err instanceof SourceReadError ? err : new SourceReadError(err);
  }
}

/** A BYOB reader when `stream` is a byte stream, else null (the default reader is used). */
function byobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: 'byob' });
  } catch {
    return null;
  }
}

/** Fills `length` bytes of `into`'s memory from `reader` (fewer if the stream ends first). */
async function readByob(reader: ReadableStreamBYOBReader, into: Uint8Array<ArrayBuffer>, length: number, onRead: (bytesRead: number) => void): Promise<Uint8Array<ArrayBuffer>> {
  let buffer = into.buffer;
  const base = into.byteOffset;
  let offset = 0;
  try {
    while (offset < length) {
      const { done, value } = await reader.read(new Uint8Array(buffer, base + offset, length - offset));
      if (value) buffer = value.buffer as ArrayBuffer;
      if (done) break;
      offset += value.byteLength;
      onRead(offset);
    }
  } finally {
    // A slice holds no more than its range; a stream not read to its end is let go.
    reader.cancel().catch(() => undefined);
  }
  return new Uint8Array(buffer, base, offset);
}

/**
 * The chunk digest of [start, end) of a source: the unit of work of a hash worker pool. `onRead`, where
 * given, hears the bytes read so far as the read goes (the pool's sign that a worker is not stuck).
 */
export type HashChunk = (source: Blob, start: number, end: number, signal: AbortSignal, onRead?: (bytesRead: number) => void) => Promise<string>;

/**
 * A HashChunk running in this thread (tests, Node without a worker pool, or inside a hash worker).
 * Keeps one reusable buffer per concurrent call, so memory stays at `concurrency` chunks.
 */
export function createInThreadHashChunk(sha256: Sha256Hex = createSha256Hex()): HashChunk {
  const chunkDigest = chunkDigestWith(sha256);
  const spare: Uint8Array<ArrayBuffer>[] = [];
  return async (source, start, end, signal, onRead) => {
    signal.throwIfAborted();
    let buffer = spare.pop();
    if (!buffer || buffer.length < end - start) buffer = new Uint8Array(end - start);
    let view: Uint8Array<ArrayBuffer> | undefined;
    try {
      view = await readRangeInto(source, start, end, buffer, onRead);
      return await chunkDigest(view);
    } finally {
      // After a BYOB read the memory lives in the view's buffer (`buffer`, which spanned all of it, is
      // detached); a read that failed may have taken it too: a detached buffer is replaced at its next use.
      spare.push(view ? new Uint8Array(view.buffer) : buffer);
    }
  };
}
