/**
 * The transfer protocol's digests of bytes the server holds in memory (common/transfer/chunk-digest.ts
 * and protocol.ts), with Node's SHA-256: a chunk's digest, and a whole content's fingerprint.
 */
import { createHash } from 'node:crypto';
import { chunkDigestSync, StreamingChunkDigest, StreamingContentDigests } from '../../common/transfer/chunk-digest';
import { fingerprintInput } from '../../common/transfer/protocol';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

export function chunkDigestOf(chunk: Uint8Array): string {
  return chunkDigestSync(chunk, sha256);
}

/** A chunk digest fed piece by piece (a body as it streams). */
export function streamingChunkDigest(): StreamingChunkDigest {
  return new StreamingChunkDigest(() => createHash('sha256'));
}

/** Chunk digests of a content fed piece by piece, cut at `chunkSize` (a stored blob read back). */
export function contentDigests(chunkSize: number): StreamingContentDigests {
  return new StreamingContentDigests(chunkSize, () => createHash('sha256'));
}

/** The file fingerprint (hex) over its chunk digests, in order (protocol.ts). */
export function fingerprintOfDigests(digests: readonly string[]): string {
  return createHash('sha256').update(fingerprintInput(digests)).digest('hex');
}

/** Fingerprint of `content` cut into chunks of `chunkSize` (an empty content is one empty chunk). */
export function fingerprintOf(content: Uint8Array, chunkSize: number): string {
  return fingerprintOfDigests(contentDigests(chunkSize).update(content).finish());
}
