import type { Db } from '../db/database';

/** Whole-store queries of the startup recovery pass (run before the server listens). */
export class RecoveryRepository {
  constructor(private readonly db: Db) {}

  /** Every blob row with its layout (chunk_size null = stored as one piece). */
  allBlobs(): Promise<Array<{ id: string; storage_key: string; chunk_size?: number | null }>> {
    return this.db.selectFrom('blobs').select(['id', 'storage_key', 'chunk_size']).execute();
  }

  async blobIdsByKeys(keys: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await this.db.selectFrom('blobs').select('storage_key').where('storage_key', 'in', keys.slice(i, i + 500)).execute();
      for (const r of rows) found.add(r.storage_key);
    }
    return found;
  }

  /** How many files and versions point at this blob. */
  async references(blobId: string): Promise<number> {
    const files = await this.db.selectFrom('files').select((eb) => eb.fn.countAll<number>().as('n')).where('blob_id', '=', blobId).executeTakeFirst();
    const versions = await this.db
      .selectFrom('file_versions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('blob_id', '=', blobId)
      .executeTakeFirst();
    return Number(files?.n ?? 0) + Number(versions?.n ?? 0);
  }

  /** Blobs no file or version references (left by nothing we know, but never kept). */
  async unreferencedBlobs(): Promise<Array<{ id: string; storage_key: string }>> {
    return this.db
      .selectFrom('blobs')
      .select(['id', 'storage_key'])
      .where((eb) => eb.not(eb.exists(eb.selectFrom('files').select('id').whereRef('files.blob_id', '=', 'blobs.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('file_versions').select('id').whereRef('file_versions.blob_id', '=', 'blobs.id'))))
      .execute();
  }

  async deleteBlobRow(id: string): Promise<void> {
    await this.db.deleteFrom('blobs').where('id', '=', id).execute();
  }

  /** Recorded chunk indexes of an upload. */
  async recordedChunks(uploadId: string): Promise<Set<number>> {
    const rows = await this.db.selectFrom('upload_chunks').select('idx').where('upload_id', '=', uploadId).execute();
    return new Set(rows.map((r) => r.idx));
  }

  async forgetChunks(uploadId: string, idxs: number[]): Promise<void> {
    if (idxs.length === 0) return;
    await this.db.deleteFrom('upload_chunks').where('upload_id', '=', uploadId).where('idx', 'in', idxs).execute();
  }

  /** Keys a small-file batch recorded before writing (0041), each with whether a blob row took it. */
  async blobIntents(): Promise<Array<{ key: string; hasRow: boolean }>> {
    const rows = await this.db
      .selectFrom('blob_intents')
      .leftJoin('blobs', 'blobs.storage_key', 'blob_intents.storage_key')
      .select(['blob_intents.storage_key as key', 'blobs.id as blobId'])
      .execute();
    return rows.map((r) => ({ key: r.key, hasRow: r.blobId !== null }));
  }

  async forgetBlobIntents(): Promise<void> {
    await this.db.deleteFrom('blob_intents').execute();
  }

  async clearMergeIntent(uploadId: string): Promise<void> {
    await this.db.updateTable('uploads').set({ merge_blob_id: null }).where('id', '=', uploadId).execute();
  }

  /** Upload-chunk rows whose upload row is gone (cannot happen with the FK, checked anyway). */
  async deleteOrphanChunkRows(): Promise<number> {
    const res = await this.db
      .deleteFrom('upload_chunks')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('uploads').select('id').whereRef('uploads.id', '=', 'upload_chunks.upload_id'))))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
