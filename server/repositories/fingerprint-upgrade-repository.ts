import type { Db } from '../db/database';

export interface StaleBlob {
  id: string;
  tenant_id: string;
  size: number;
  storage_key: string;
  chunk_size: number | null;
  chunk_count: number | null;
}

/** The blobs whose fingerprint predates the tree chunk digest (migration 0042) and their upgrade. */
export class FingerprintUpgradeRepository {
  constructor(private readonly db: Db) {}

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
   * Records the blob's fingerprint under the new digest and drops it from the stale list. When the
   * tenant already holds a blob with that fingerprint (the same content uploaded again since), the
   * old one keeps its fingerprint: it is only never offered for a second upload.
   */
  async upgrade(blob: StaleBlob, fingerprint: string): Promise<'upgraded' | 'duplicate'> {
    return this.db.transaction().execute(async (tx) => {
      const taken = await tx
        .selectFrom('blobs')
        .select('id')
        .where('tenant_id', '=', blob.tenant_id)
        .where('fingerprint', '=', fingerprint)
        .where('id', '<>', blob.id)
        .executeTakeFirst();
      if (!taken) await tx.updateTable('blobs').set({ fingerprint }).where('id', '=', blob.id).execute();
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
