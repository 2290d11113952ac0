/**
 * The transfer protocol's digests of bytes the server holds in memory (common/transfer/chunk-digest.ts
 * and protocol.ts), with Node's SHA-256: a chunk's digest, and a whole content's fingerprint.
 */
import { createHash } from 'node:crypto';
import { chunkDigestSync, StreamingChunkDigest } from '../../common/transfer/chunk-digest';
import { fingerprintInput } from '../../common/transfer/protocol';

const sha256 = (data: Uint8Array): Uint8Array => createHash('sha256').update(data).digest();

export function chunkDigestOf(chunk: Uint8Array): string {
  return chunkDigestSync(chunk, sha256);
}

/** A chunk digest fed piece by piece (a body as it streams). */
export function streamingChunkDigest(): StreamingChunkDigest {
  return new StreamingChunkDigest(() => createHash('sha256'));
}

/** Fingerprint of `content` cut into chunks of `chunkSize` (an empty content is one empty chunk). */
export function fingerprintOf(content: Uint8Array, chunkSize: number): string {
  const digests: string[] = [];
  for (let start = 0; start < content.length || digests.length === 0; start += chunkSize) {
    digests.push(chunkDigestOf(content.subarray(start, start + chunkSize)));
    if (content.length === 0) break;
  }
  return createHash('sha256').update(fingerprintInput(digests)).digest('hex');
}
