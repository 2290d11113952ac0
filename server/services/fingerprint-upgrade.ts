/**
 * Gives every blob stored before the tree chunk digest (migration 0042) its fingerprint under the new
 * digest: reads the bytes once, chunk by chunk, and records the result. Runs in the background after
 * start-up, one blob at a time (it competes with users for the disk, so it never runs two reads), and
 * stops at shutdown; a restart continues where it stopped because each blob leaves the stale list as
 * it is done. A blob deleted meanwhile is skipped.
 */
import type { FingerprintUpgradeRepository, StaleBlob } from '../repositories/fingerprint-upgrade-repository';
import type { BlobStore } from '../storage/blob-store';
import { contentDigests, fingerprintOfDigests } from '../storage/content-digest';
import { layoutOf } from './upload-commit';

export interface FingerprintUpgradeReport {
  upgraded: number;
  duplicates: number;
  failed: number;
}

export interface FingerprintUpgradeLog {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * The fingerprint of a stored blob under the current digest. Chunked blobs are cut at their own chunk
 * size (as their uploader did); one-piece blobs at the server's upload chunk size (as batch uploads
 * and created texts compute theirs).
 */
export async function fingerprintOfBlob(blobs: BlobStore, blob: StaleBlob, defaultChunkSize: number, signal: AbortSignal): Promise<string> {
  const digests = contentDigests(blob.chunk_size ?? defaultChunkSize);
  const stream = blobs.openRead(blob.storage_key, undefined, layoutOf(blob));
  try {
    for await (const piece of stream as AsyncIterable<Buffer>) {
      signal.throwIfAborted();
      digests.update(piece);
    }
  } finally {
    stream.destroy();
  }
  return fingerprintOfDigests(digests.finish());
}

export async function upgradeFingerprints(
  repo: FingerprintUpgradeRepository,
  blobs: BlobStore,
  defaultChunkSize: number,
  signal: AbortSignal,
  log: FingerprintUpgradeLog,
): Promise<FingerprintUpgradeReport> {
  const report: FingerprintUpgradeReport = { upgraded: 0, duplicates: 0, failed: 0 };
  await repo.dropOrphans();
  let afterId = '';
  for (;;) {
    signal.throwIfAborted();
    const page = await repo.nextStale(afterId, 100);
    if (page.length === 0) break;
    for (const blob of page) {
      signal.throwIfAborted();
      afterId = blob.id;
      try {
        const fingerprint = await fingerprintOfBlob(blobs, blob, defaultChunkSize, signal);
        if ((await repo.upgrade(blob, fingerprint)) === 'upgraded') report.upgraded++;
        else report.duplicates++;
      } catch (err) {
        if (signal.aborted) throw err;
        // Left in the list: the next start-up tries again (a blob deleted meanwhile drops out then).
        report.failed++;
        log.error({ err, blobId: blob.id }, 'fingerprint upgrade: blob unreadable');
      }
    }
  }
  if (report.upgraded + report.duplicates + report.failed > 0) log.info(report, 'fingerprint upgrade done');
  return report;
}
