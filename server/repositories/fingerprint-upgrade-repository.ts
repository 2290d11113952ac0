import type { Db } from '../db/database';

export interface StaleBlob {
  id: string;
  tenant_id: string;
  size: number;
  storage_key: string;
  chunk_size: number | null;
  chunk_count: number | null;
}

/**
 * The blobs whose fingerprint no client computes any more, listed in `stale_fingerprints`: those that
 * predate the tree chunk digest (migration 0042), and those computed at another chunk size than the
 * configured one (migration 0084, {@link listStale}); and their upgrade.
 */
export class FingerprintUpgradeRepository {
  constructor(private readonly db: Db) {}

  /**
   * Lists every blob whose fingerprint was computed at another chunk size than `chunkSize` and
   * depends on it (more than one chunk under either size: fingerprintUnaffected, chunk-policy.ts).
   * Blobs whose fingerprint is the same under both just record `chunkSize`; so do the one-piece blobs
   * stored before 0084 (fingerprinted at the configured size, which the database did not hold).
   * Returns how many blobs are listed now.
   */
  async listStale(chunkSize: number): Promise<number> {
    await this.db.updateTable('blobs').set({ fingerprint_chunk_size: chunkSize }).where('fingerprint_chunk_size', 'is', null).execute();
    await this.db
      .updateTable('blobs')
      .set({ fingerprint_chunk_size: chunkSize })
      .where('fingerprint_chunk_size', '>', 0)
      .where('fingerprint_chunk_size', '<>', chunkSize)
      .where((eb) => eb.and([eb('size', '<=', eb.ref('fingerprint_chunk_size')), eb('size', '<=', chunkSize)]))
      .execute();
    await this.db
      .insertInto('stale_fingerprints')
      .columns(['blob_id'])
      .expression((eb) =>
        eb
          .selectFrom('blobs')
          .select('blobs.id')
          .where('blobs.fingerprint_chunk_size', '>', 0)
          .where('blobs.fingerprint_chunk_size', '<>', chunkSize)
          .where((w) => w.not(w.exists(w.selectFrom('stale_fingerprints as s').select('s.blob_id').whereRef('s.blob_id', '=', 'blobs.id')))),
      )
      .execute();
    return this.staleCount();
  }

  /** The next stale blobs in id order after `afterId` (a blob deleted meanwhile simply drops out). */
  async nextStale(afterId: string, limit: number): Promise<StaleBlob[]> {
    const rows = await this.db
      .selectFrom('stale_fingerprints')
      .innerJoin('blobs', 'blobs.id', 'stale_fingerprints.blob_id')
      .select(['blobs.id', 'blobs.tenant_id', 'blobs.size', 'blobs.storage_key', 'blobs.chunk_size', 'blobs.chunk_count'])
      .where('stale_fingerprints.blob_id', '>', afterId)
      .orderBy('stale_fingerprints.blob_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, size: Number(r.size), chunk_size: r.chunk_size ?? null, chunk_count: r.chunk_count ?? null }));
  }

  /**
   * Records the blob's fingerprint at `chunkSize` and drops it from the stale list. When the tenant
   * already holds a blob with that fingerprint (the same content uploaded again since), the old one
   * keeps its fingerprint and records chunk size 0: it is never offered for a second upload, and
   * never read again.
   */
  async upgrade(blob: StaleBlob, fingerprint: string, chunkSize: number): Promise<'upgraded' | 'duplicate'> {
    return this.db.transaction().execute(async (tx) => {
      const taken = await tx
        .selectFrom('blobs')
        .select('id')
        .where('tenant_id', '=', blob.tenant_id)
        .where('fingerprint', '=', fingerprint)
        .where('id', '<>', blob.id)
        .executeTakeFirst();
      await tx
        .updateTable('blobs')
        .set(taken ? { fingerprint_chunk_size: 0 } : { fingerprint, fingerprint_chunk_size: chunkSize })
        .where('id', '=', blob.id)
        .execute();
      await tx.deleteFrom('stale_fingerprints').where('blob_id', '=', blob.id).execute();
      return taken ? 'duplicate' : 'upgraded';
    });
  }

  /** Stale rows whose blob no longer exists (deleted before its turn). */
  async dropOrphans(): Promise<void> {
    await this.db
      .deleteFrom('stale_fingerprints')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('blobs').select('blobs.id').whereRef('blobs.id', '=', 'stale_fingerprints.blob_id'))))
      .execute();
  }

  async staleCount(): Promise<number> {
    const row = await this.db.selectFrom('stale_fingerprints').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}
