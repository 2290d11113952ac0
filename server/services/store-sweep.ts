import type { UploadRepository } from '../repositories/upload-repository';
import type { ByteStore } from '../storage/byte-store';

export interface StoreSweepResult {
  /** Temp files (disk) and incomplete multipart uploads (object store) older than an upload session, removed. */
  tempFiles: number;
  multipartUploads: number;
  /** Chunks of uploads no longer on record (their removal failed, e.g. while the store was down), removed. */
  orphanUploads: number;
}

/**
 * The sweeper's pass over the store itself (startup recovery does more, but only when no other process
 * is live): what writes left behind older than an upload session may live, and the chunks of uploads
 * whose rows are gone. Rows are always created before their chunks and deleted before them, so an
 * upload listed without a row is never one being written.
 */
export async function sweepStore(deps: { store: ByteStore; uploads: UploadRepository; uploadExpiryMs: number }, now: number): Promise<StoreSweepResult> {
  const { store, uploads } = deps;
  const leftovers = await store.cleanUp(now - deps.uploadExpiryMs);
  const ids = await store.chunks.listUploadIds();
  const live = await uploads.liveIds(ids);
  let orphanUploads = 0;
  for (const id of ids) {
    if (live.has(id)) continue;
    await store.chunks.removeUpload(id);
    orphanUploads++;
  }
  return { ...leftovers, orphanUploads };
}
