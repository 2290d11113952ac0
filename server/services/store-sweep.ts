import type { RecoveryRepository } from '../repositories/recovery-repository';
import type { UploadRepository } from '../repositories/upload-repository';
import type { ByteStore } from '../storage/byte-store';

export interface StoreSweepResult {
  /** Temp files (disk) and incomplete multipart uploads (object store) older than an upload session, removed. */
  tempFiles: number;
  multipartUploads: number;
  /** Chunks of uploads no longer on record (their removal failed, e.g. while the store was down), removed. */
  orphanUploads: number;
  /**
   * Chunked blobs no blob row took, older than an upload session and no live upload's merge: what a
   * merge that failed midway left (object store: the chunk copies made before the store went down,
   * which it could not delete then). Counted as startup recovery's report counts them.
   */
  orphanBlobDirs: number;
}

/**
 * The sweeper's pass over the store itself (startup recovery does more, but only when no other process
 * is live): what writes left behind older than an upload session may live, the chunks of uploads
 * whose rows are gone, and the chunked blobs of merges that never committed. Rows are always created
 * before their chunks and deleted before them, so an upload listed without a row is never one being
 * written.
 */
export async function sweepStore(
  deps: { store: ByteStore; uploads: UploadRepository; recovery: RecoveryRepository; uploadExpiryMs: number },
  now: number,
): Promise<StoreSweepResult> {
  const { store, uploads } = deps;
  const olderThan = now - deps.uploadExpiryMs;
  const leftovers = await store.cleanUp(olderThan);
  const ids = await store.chunks.listUploadIds();
  const live = await uploads.liveIds(ids);
  let orphanUploads = 0;
  for (const id of ids) {
    if (live.has(id)) continue;
    await store.chunks.removeUpload(id);
    orphanUploads++;
  }
  const orphanBlobDirs = await removeUnclaimedBlobs(deps, olderThan);
  return { ...leftovers, orphanUploads, orphanBlobDirs };
}

/**
 * Chunked blobs without a blob row. A merge in any process records its intent (uploads.merge_blob_id)
 * before its first copy or rename and keeps it until the transaction that adds the blob row clears it,
 * or until it has put the chunks back. So a listed blob that no live upload's intent names and no row
 * holds is one nobody will commit. Intents are read before rows: a merge that commits between the two
 * reads is seen by one of them. Only blobs older than an upload session go (a merge whose process
 * lost its lock may still be copying into one); younger ones wait for a later pass, or the next start.
 * One-piece blobs without a row are left alone: tenant logos and avatars have none.
 */
async function removeUnclaimedBlobs(deps: { store: ByteStore; uploads: UploadRepository; recovery: RecoveryRepository }, olderThan: number): Promise<number> {
  const { blobs } = deps.store;
  const chunked = [...(await blobs.listStored())].filter(([, layout]) => layout === 'chunked').map(([key]) => key);
  if (chunked.length === 0) return 0;
  const merging = await deps.uploads.mergeIntents();
  const withRows = await deps.recovery.blobIdsByKeys(chunked.filter((key) => !merging.has(key)));
  let removed = 0;
  for (const key of chunked) {
    if (merging.has(key) || withRows.has(key)) continue;
    const changedAt = await blobs.chunkedChangedAt(key);
    if (changedAt === null || changedAt > olderThan) continue;
    await blobs.remove(key);
    removed++;
  }
  return removed;
}
