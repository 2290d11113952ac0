/**
 * The sync's batch upload (POST /api/files/batch-upload, common/transfer/batch-upload.ts): small files
 * sent whole in one body after a manifest, each answered on its own. Split from http-remote.ts, which
 * keeps the call itself (retries, failure mapping) and hands it in as `post`.
 */
import { createHash } from 'node:crypto';
import { ERRORS } from '../../common/api/errors';
import { FILE_CATEGORY } from '../../common/api/types';
import { chunkCount, fingerprintInput } from '../../common/transfer/protocol';
import { HEADER_BATCH_MANIFEST_SHA256, type BatchUploadItem, type BatchUploadResponse } from '../../common/transfer/batch-upload';
import { chunkDigestSync } from '../../common/transfer/chunk-digest';
import { manifestFrame } from '../engine/batch-runner';
import { MESSAGES } from '../engine/messages';
import { RemoteError, type BatchFile, type BatchFileOutcome } from './ports';

const SYNCED = FILE_CATEGORY.synced;

/** One refused item of a batch, as the executor reacts to it. */
function batchRefusal(code: string, message: string): RemoteError {
  // The file's bytes arrived damaged or changed: read and sent again next pass. The target changed
  // since the plan (name taken, the file replaced or gone): planned again.
  if (code === ERRORS.CHUNK_DIGEST_MISMATCH.code || code === ERRORS.SYNC_CHANGED.code || code === ERRORS.NAME_CONFLICT.code || code === ERRORS.UPLOAD_NOT_FOUND.code) {
    return new RemoteError(message, 'conflict', code);
  }
  if (code === ERRORS.NOT_FOUND.code) return new RemoteError(message, 'notFound', code);
  return new RemoteError(message || MESSAGES.uploadFailed, 'refused', code);
}

/** A chunk's digest (common/transfer/chunk-digest.ts) with Node's SHA-256. */
function nodeChunkDigest(bytes: Uint8Array): string {
  return chunkDigestSync(bytes, (data) => createHash('sha256').update(data).digest());
}

/** The fingerprint the server gives these bytes: the block list over `chunkSize` chunks (protocol.ts). */
function nodeFingerprint(bytes: Uint8Array, chunkSize: number): string {
  const digests: string[] = [];
  for (let i = 0; i < chunkCount(bytes.length, chunkSize); i++) digests.push(nodeChunkDigest(bytes.subarray(i * chunkSize, Math.min(bytes.length, (i + 1) * chunkSize))));
  return createHash('sha256').update(fingerprintInput(digests)).digest('hex');
}

/**
 * Sends `files` in one batch through `post` and reads each file's outcome. `stamp` makes the items'
 * client keys, kept across `post`'s retries; `chunkSize` is the server's, for the fingerprints.
 */
export async function sendBatch(
  files: readonly BatchFile[],
  chunkSize: number,
  stamp: string,
  post: (body: Blob, headers: Record<string, string>) => Promise<BatchUploadResponse>,
): Promise<BatchFileOutcome[]> {
  const items: BatchUploadItem[] = files.map((f, i) => ({
    // Kept across this call's retries: a batch the server took before its answer was lost answers `created`.
    clientKey: `${stamp}-${i}`,
    name: f.target.name,
    parentId: f.target.parentId,
    category: SYNCED,
    size: f.bytes.length,
    digest: nodeChunkDigest(f.bytes),
    onConflict: f.target.replace ? 'newVersion' : 'fail',
    ...(f.target.replace ? { ifMatch: { fileId: f.target.replace.id, fingerprint: f.target.replace.ifMatch } } : {}),
  }));
  const frame = manifestFrame(items);
  const headers = { [HEADER_BATCH_MANIFEST_SHA256]: createHash('sha256').update(frame).digest('hex') };
  const body = new Blob([frame, ...files.map((f) => f.bytes as Uint8Array<ArrayBuffer>)]);
  const answer = await post(body, headers);
  const byKey = new Map(answer.results.map((r) => [r.clientKey, r]));
  return files.map((f, i): BatchFileOutcome => {
    const result = byKey.get(items[i]!.clientKey);
    if (!result) return { error: new RemoteError(MESSAGES.uploadFailed, 'conflict') };
    if (result.status === 'created') return { id: result.file.id, fingerprint: nodeFingerprint(f.bytes, chunkSize) };
    return { error: batchRefusal(result.errorCode, result.errorMessage) };
  });
}
