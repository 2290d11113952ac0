/**
 * Gives every blob whose fingerprint no client computes any more the fingerprint clients compute now:
 * blobs stored before the tree chunk digest (migration 0042), and blobs fingerprinted at another chunk
 * size than the configured one (migration 0084: an operator changed CHUNK_SIZE; only blobs of more
 * than one chunk under either size — the others' fingerprint is the same). Reads the bytes once, cut at
 * the configured chunk size, and records the result with that size. Until its turn, such a blob is
 * only not found by a second upload or dedup (the client uploads it again): nothing reads a wrong answer.
 * Runs in the background after start-up, one blob at a time (it competes with users for the disk, so
 * it never runs two reads), and stops at shutdown; a restart continues where it stopped because each
 * blob leaves the stale list as it is done. A blob deleted meanwhile is skipped.
 */
import type { FingerprintUpgradeRepository, StaleBlob } from '../repositories/fingerprint-upgrade-repository';
import type { BlobStore } from '../storage/byte-store';
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
 * The fingerprint of a stored blob as a client computes it now: cut at the configured chunk size,
 * whatever the blob's storage layout (a chunked blob's chunk files may be of an earlier size).
 */
export async function fingerprintOfBlob(blobs: BlobStore, blob: StaleBlob, chunkSize: number, signal: AbortSignal): Promise<string> {
  const digests = contentDigests(chunkSize);
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
  chunkSize: number,
  signal: AbortSignal,
  log: FingerprintUpgradeLog,
): Promise<FingerprintUpgradeReport> {
  const report: FingerprintUpgradeReport = { upgraded: 0, duplicates: 0, failed: 0 };
  await repo.dropOrphans();
  const stale = await repo.listStale(chunkSize);
  if (stale > 0) log.info({ blobs: stale, chunkSize }, 'fingerprint upgrade: stored blobs to fingerprint again at the configured chunk size');
  let afterId = '';
  for (;;) {
    signal.throwIfAborted();
    const page = await repo.nextStale(afterId, 100);
    if (page.length === 0) break;
    for (const blob of page) {
      signal.throwIfAborted();
      afterId = blob.id;
      try {
        const fingerprint = await fingerprintOfBlob(blobs, blob, chunkSize, signal);
        if ((await repo.upgrade(blob, fingerprint, chunkSize)) === 'upgraded') report.upgraded++;
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
