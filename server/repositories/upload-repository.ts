import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { FilesTable, UploadsTable } from '../db/schema';
import { sqliteOnly } from '../db/dialect';
import { commitInTx, Rollback, type CommitInput, type CommitOutcome } from './upload-commit-tx';

/**
 * What a chunk request needs of its upload: not the digest list, which grows with the file (a 10 GiB
 * file in 256 KiB chunks announces 40,960 digests) and was read and parsed three times per chunk.
 */
export type ChunkTarget = Pick<UploadsTable, 'id' | 'fingerprint' | 'size' | 'chunk_size' | 'chunk_count' | 'merge_blob_id'>;


export class UploadRepository {
  constructor(private readonly db: Db) {}

  findActiveByFingerprint(userId: string, fingerprint: string, size: number, chunkSize: number, now: number) {
    return this.db
      .selectFrom('uploads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('fingerprint', '=', fingerprint)
      .where('size', '=', size)
      .where('chunk_size', '=', chunkSize)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  }

  /** An unexpired upload of this user; other users' uploads are invisible. */
  findOwned(uploadId: string, userId: string, tenantId: string, now: number): Promise<UploadsTable | undefined> {
    return this.db
      .selectFrom('uploads')
      .selectAll()
      .where('id', '=', uploadId)
      .where('user_id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** `findOwned` without the digest list (the chunk path). */
  findChunkTarget(uploadId: string, userId: string, tenantId: string, now: number): Promise<ChunkTarget | undefined> {
    return this.db
      .selectFrom('uploads')
      .select(['id', 'fingerprint', 'size', 'chunk_size', 'chunk_count', 'merge_blob_id'])
      .where('id', '=', uploadId)
      .where('user_id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** The upload's digest list as stored (JSON), or undefined when the upload is gone. */
  async chunkDigestsJson(uploadId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('uploads').select('chunk_digests').where('id', '=', uploadId).executeTakeFirst();
    return row?.chunk_digests;
  }

  /**
   * The file an earlier request with this client key created, when it still exists (live or in the
   * recycle bin, in the caller's tenant).
   */
  async findFinished(userId: string, tenantId: string, clientKey: string): Promise<FilesTable | undefined> {
    return this.db
      .selectFrom('finished_uploads')
      .innerJoin('files', 'files.id', 'finished_uploads.file_id')
      .selectAll('files')
      .where('finished_uploads.user_id', '=', userId)
      .where('finished_uploads.client_key', '=', clientKey)
      .where('files.tenant_id', '=', tenantId)
      .executeTakeFirst();
  }

  /** Forgets finished uploads recorded before `cutoff` (the sweeper). */
  async deleteFinishedBefore(cutoff: number): Promise<void> {
    await this.db.deleteFrom('finished_uploads').where('finished_at', '<', cutoff).execute();
  }

  findById(uploadId: string): Promise<UploadsTable | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', uploadId).executeTakeFirst();
  }

  async insert(row: UploadsTable): Promise<void> {
    await this.db.insertInto('uploads').values(row).execute();
  }

  async updateTarget(id: string, name: string, parentId: string | null, category: number, now: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({ name, parent_id: parentId, category, updated_at: now, expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  }

  /** A streaming session's merge: the fingerprint and digests the client announced (checked by the service). */
  async announce(id: string, fingerprint: string, chunkDigests: string): Promise<void> {
    await this.db.updateTable('uploads').set({ fingerprint, chunk_digests: chunkDigests }).where('id', '=', id).execute();
  }

  /**
   * The tenant's newest blobs of exactly `size` bytes (the second-upload probe's candidates).
   * Index blobs_tenant_size.
   */
  tenantBlobsOfSize(tenantId: string, size: number, limit: number) {
    return this.db
      .selectFrom('blobs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('size', '=', size)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Durable merge intent: the chunk directory is about to become blobs/<blobId> (null: not merging). */
  /** Whether a blob row names stored key `key` (after a commit that failed: did it commit after all?). */
  async blobKeyRecorded(key: string): Promise<boolean> {
    return (await this.db.selectFrom('blobs').select('id').where('storage_key', '=', key).executeTakeFirst()) !== undefined;
  }

  async setMergeIntent(id: string, blobId: string | null): Promise<void> {
    await this.db.updateTable('uploads').set({ merge_blob_id: blobId }).where('id', '=', id).execute();
  }

  async storedChunks(uploadId: string): Promise<Array<{ idx: number; size: number; sha256: string }>> {
    return this.db
      .selectFrom('upload_chunks')
      .select(['idx', 'size', 'sha256'])
      .where('upload_id', '=', uploadId)
      .orderBy('idx')
      .execute();
  }

  async isChunkRecorded(uploadId: string, idx: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('upload_chunks')
      .select('idx')
      .where('upload_id', '=', uploadId)
      .where('idx', '=', idx)
      .executeTakeFirst();
    return Boolean(row);
  }

  /**
   * Records a stored chunk and pushes the upload's expiry, in one transaction (one commit per chunk);
   * recording the same chunk twice is a no-op (idempotent re-send).
   */
  /**
   * Records a stored chunk. Committed WITHOUT its own WAL fsync (synchronous=NORMAL for this one
   * transaction, the connection held so nothing else commits in between): with better-sqlite3 that
   * fsync blocked the event loop once per chunk. What a chunk record needs is order, not its own
   * flush: its file is already fsynced and renamed, and the record reaches the disk with the next
   * FULL commit on this database (at the latest the merge's, which cannot succeed without it). A power
   * cut before that forgets the record; recovery then removes the unrecorded file and chunk/exist asks
   * for the chunk again. A process crash loses nothing (the WAL is in the OS's hands).
   */
  async recordChunk(uploadId: string, idx: number, size: number, sha256: string, now: number, expiresAt: number): Promise<void> {
    await this.db.connection().execute(async (conn) => {
      await sqliteOnly(conn, sql`PRAGMA synchronous = NORMAL`);
      try {
        await conn.transaction().execute(async (tx) => {
          await tx
            .insertInto('upload_chunks')
            .values({ upload_id: uploadId, idx, size, sha256 })
            .onConflict((oc) => oc.columns(['upload_id', 'idx']).doNothing())
            .execute();
          await tx.updateTable('uploads').set({ updated_at: now, expires_at: expiresAt }).where('id', '=', uploadId).execute();
        });
      } finally {
        await sqliteOnly(conn, sql`PRAGMA synchronous = FULL`);
      }
    });
  }

  async expiredUploadIds(now: number, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('uploads').select('id').where('expires_at', '<=', now).limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** Which of `ids` are uploads still on record (the sweeper's pass over the store's upload listing). */
  async liveIds(ids: readonly string[]): Promise<Set<string>> {
    const live = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db.selectFrom('uploads').select('id').where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) live.add(r.id);
    }
    return live;
  }

  /** The blob keys merges under way have claimed (uploads' merge intents; the sweeper leaves those blobs alone). */
  async mergeIntents(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('uploads').select('merge_blob_id').where('merge_blob_id', 'is not', null).execute();
    return new Set(rows.map((r) => r.merge_blob_id!));
  }

  /** Every upload (recovery): id and merge intent. */
  allUploads(): Promise<Array<{ id: string; merge_blob_id: string | null | undefined; size: number; chunk_size: number; chunk_count: number }>> {
    return this.db.selectFrom('uploads').select(['id', 'merge_blob_id', 'size', 'chunk_size', 'chunk_count']).execute();
  }

  async deleteUpload(id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('upload_chunks').where('upload_id', '=', id).execute();
      await tx.deleteFrom('uploads').where('id', '=', id).execute();
    });
  }

  /** The tenant's blob with this content, if any (dedup is scoped to the tenant). */
  findTenantBlob(tenantId: string, fingerprint: string, size: number) {
    return this.db
      .selectFrom('blobs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('fingerprint', '=', fingerprint)
      .where('size', '=', size)
      .executeTakeFirst();
  }

  /**
   * Completes an upload (or a second upload) all or nothing: reuse or insert the blob row, place the
   * file under the conflict policy, charge the quota (versions keep counting), delete the upload rows.
   */
  async commit(input: CommitInput): Promise<CommitOutcome> {
    try {
      return await this.db.transaction().execute((tx) => commitInTx(tx, input));
    } catch (err) {
      if (err instanceof Rollback) return { ok: false, reason: err.reason };
      throw err;
    }
  }
}
