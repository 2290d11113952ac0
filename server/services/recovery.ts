import type { RecoveryRepository } from '../repositories/recovery-repository';
import type { UploadRepository } from '../repositories/upload-repository';
import { partialIndexOf, type BlobStore, type ByteStore, type ChunkStore } from '../storage/byte-store';
import { chunkRange } from '../../common/transfer/protocol';

export interface RecoveryReport {
  /** Which store was recovered ('disk', 's3'). */
  store: ByteStore['kind'];
  tempFiles: number;
  /** Incomplete multipart uploads of an object store aborted (writes that never finished). */
  multipartUploads: number;
  mergesRolledBack: number;
  orphanUploadDirs: number;
  unrecordedChunkFiles: number;
  /** `<index>.part` files kept for a resume inside the chunk. */
  partialChunkFiles: number;
  missingChunkRows: number;
  orphanBlobDirs: number;
  missingBlobRows: number;
  unreferencedBlobs: number;
  /** Files of small-file batches that crashed before their commit (intents without a blob row). */
  uncommittedBatchBlobs: number;
  /** Blob rows whose bytes are gone but that files still reference: kept, logged loudly. */
  brokenReferencedBlobs: string[];
}

export interface RecoveryLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * A merge stopped between renaming uploads/<id>/ to blobs/<key>/ and its commit (its process died):
 * the chunks go back to the upload, so it can be merged again. The caller knows no blob row has
 * `key` and clears the intent afterwards. True when the directory was moved back.
 */
export async function rollBackMergeDirectory(stores: { chunks: ChunkStore; blobs: BlobStore }, uploadId: string, key: string): Promise<boolean> {
  const { chunks, blobs } = stores;
  if (!(await blobs.hasChunked(key))) return false;
  if ((await chunks.listFiles(uploadId)).length === 0) {
    await chunks.removeUpload(uploadId);
    await blobs.returnToUpload(key, uploadId);
    return true;
  }
  await blobs.remove(key);
  return false;
}

/**
 * Startup recovery, run before the server listens (nothing else touches the store meanwhile). Every
 * multi-step write is ordered so a crash between two steps leaves a state this pass repairs:
 * - temp files (a chunk or blob being written) are deleted, and an object store's incomplete
 *   multipart uploads aborted;
 * - a merge that renamed uploads/<id>/ to blobs/<blobId>/ but did not commit (upload row still there,
 *   its merge_blob_id naming a blob directory without a blob row) is moved back: the upload resumes;
 * - upload directories without an upload row (finished, swept or cancelled) are deleted; inside live
 *   ones, chunk files without a chunk row are deleted and chunk rows without a file are forgotten
 *   (so chunk/exist never lists a chunk the server does not hold); partial chunks `<index>.part` of
 *   unrecorded chunks are kept when 0 < length < chunk length (a cut body, resumable with `offset`),
 *   others (empty, full-length but unverified, of a recorded chunk) are deleted;
 * - blob directories without a blob row are deleted, and so are the one-piece files a small-file batch
 *   wrote but did not commit (its intents name them);
 * - blob rows whose bytes are missing (a chunked blob without its directory, a one-piece blob
 *   without its file) are deleted if nothing references them, else logged loudly;
 * - blobs no file or version references are deleted (row and bytes), and what the documents pipeline
 *   made of every blob that is gone (PDF rendition, thumbnail, text; docs/documents.md).
 */
export async function recoverStore(
  deps: { store: ByteStore; uploads: UploadRepository; recovery: RecoveryRepository; documents?: { sweepOrphans(): Promise<number> } },
  log: RecoveryLog,
  now = Date.now(),
): Promise<RecoveryReport> {
  const { uploads, recovery, store } = deps;
  const { chunks, blobs } = store;
  const leftovers = await store.cleanUp(now);
  const report: RecoveryReport = {
    store: store.kind,
    tempFiles: leftovers.tempFiles,
    multipartUploads: leftovers.multipartUploads,
    mergesRolledBack: 0,
    orphanUploadDirs: 0,
    unrecordedChunkFiles: 0,
    partialChunkFiles: 0,
    missingChunkRows: 0,
    orphanBlobDirs: 0,
    missingBlobRows: 0,
    unreferencedBlobs: 0,
    uncommittedBatchBlobs: 0,
    brokenReferencedBlobs: [],
  };

  const liveUploads = await uploads.allUploads();
  const uploadIds = new Set(liveUploads.map((u) => u.id));
  const intents = liveUploads.filter((u) => u.merge_blob_id);
  const knownKeys = await recovery.blobIdsByKeys(intents.map((u) => u.merge_blob_id!));
  for (const u of intents) {
    const key = u.merge_blob_id!;
    if (!knownKeys.has(key) && (await rollBackMergeDirectory({ chunks, blobs }, u.id, key))) report.mergesRolledBack++;
    await recovery.clearMergeIntent(u.id);
  }

  for (const id of await chunks.listUploadIds()) {
    if (!uploadIds.has(id)) {
      await chunks.removeUpload(id);
      report.orphanUploadDirs++;
    }
  }
  for (const upload of liveUploads) {
    const id = upload.id;
    const recorded = await recovery.recordedChunks(id);
    const onDisk = new Set<number>();
    const partialLengths = await chunks.partialFileSizes(id);
    for (const name of await chunks.listFiles(id)) {
      const partial = partialIndexOf(name);
      if (partial !== null) {
        const bytes = partialLengths.get(name) ?? 0;
        const { start, end } = chunkRange(partial, Number(upload.size), upload.chunk_size);
        if (partial < upload.chunk_count && !recorded.has(partial) && bytes > 0 && bytes < end - start) {
          report.partialChunkFiles++;
          continue;
        }
      }
      const idx = /^[0-9]+$/.test(name) ? Number(name) : NaN;
      if (Number.isSafeInteger(idx) && recorded.has(idx)) {
        onDisk.add(idx);
      } else {
        await chunks.removeFile(id, name);
        report.unrecordedChunkFiles++;
      }
    }
    const missing = [...recorded].filter((i) => !onDisk.has(i));
    await recovery.forgetChunks(id, missing);
    report.missingChunkRows += missing.length;
  }
  await recovery.deleteOrphanChunkRows();

  const stored = await blobs.listStored();
  // Only directories without a row are orphans of an interrupted merge: a single file without a row
  // may be a tenant logo (tenants.logo_key) or a user's avatar (users.avatar), which have none.
  const chunkedKeys = [...stored].filter(([, layout]) => layout === 'chunked').map(([key]) => key);
  const withRows = await recovery.blobIdsByKeys(chunkedKeys);
  for (const key of chunkedKeys) {
    if (!withRows.has(key)) {
      // A folder the listing names may hold nothing: radosgw's delimited listing can still give the
      // prefix of objects just deleted (the plain listing no longer does). Only what is there is counted.
      const held = await blobs.hasChunked(key);
      await blobs.remove(key);
      stored.delete(key);
      if (held) report.orphanBlobDirs++;
    }
  }
  for (const intent of await recovery.blobIntents()) {
    if (intent.hasRow) continue;
    await blobs.remove(intent.key);
    stored.delete(intent.key);
    report.uncommittedBatchBlobs++;
  }
  await recovery.forgetBlobIntents();
  for (const blob of await recovery.allBlobs()) {
    if (stored.get(blob.storage_key) === (blob.chunk_size == null ? 'single' : 'chunked')) continue;
    if ((await recovery.references(blob.id)) === 0) {
      await recovery.deleteBlobRow(blob.id);
      report.missingBlobRows++;
    } else {
      report.brokenReferencedBlobs.push(blob.id);
    }
  }
  for (const blob of await recovery.unreferencedBlobs()) {
    await recovery.deleteBlobRow(blob.id);
    await blobs.remove(blob.storage_key);
    report.unreferencedBlobs++;
  }
  // What the documents pipeline made of the blobs removed here (or by a pass that died) goes too.
  await deps.documents?.sweepOrphans();

  if (report.brokenReferencedBlobs.length > 0) {
    log.error(
      { store: store.kind, blobIds: report.brokenReferencedBlobs },
      'STORAGE DAMAGE: blobs referenced by files have no bytes in the store; the rows are kept for an operator to restore',
    );
  }
  log.info({ report }, 'startup recovery done');
  return report;
}
