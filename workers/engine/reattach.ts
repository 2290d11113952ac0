/**
 * Matching a re-picked file to a held item whose file the browser did not keep: same size and, once
 * the item was hashed, the same fingerprint (re-hashed with the recorded chunk size). A never-hashed
 * item only has its size and name to go by.
 */
import { fingerprintOfChunkDigests, type HashChunk, type Sha256Hex } from '../hash/sha256';
import { hashChunksInBackground } from './chunk-digests';
import type { UploadRecord } from '../queue/types';

/** Chunks hashed at once while matching. */
const REATTACH_HASH_CONCURRENCY = 2;

export async function fingerprintMatches(record: UploadRecord, file: Blob, hashChunk: HashChunk, sha256: Sha256Hex, signal: AbortSignal): Promise<boolean> {
  if (file.size !== record.size) return false;
  if (!record.fingerprint || !record.chunkSize) return !(file instanceof File) || !file.name || file.name === record.name;
  const digests = await hashChunksInBackground(file, record.chunkSize, {
    hashChunk,
    concurrency: REATTACH_HASH_CONCURRENCY,
    signal,
    onProgress: () => undefined,
  }).all();
  return (await fingerprintOfChunkDigests(digests, sha256)) === record.fingerprint;
}
