import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import type { FilesTable, UploadsTable } from '../db/schema';

export type CommitOutcome =
  | { ok: true; file: FilesTable; blobId: string; reusedExistingBlob: boolean }
  | { ok: false; reason: 'uploadGone' | 'quota' | 'nameConflict' };

/** Thrown inside the merge transaction to roll it back with a reason. */
class Rollback extends Error {
  constructor(readonly reason: 'uploadGone' | 'quota' | 'nameConflict') {
    super(reason);
  }
}

export interface CommitUploadInput {
  uploadId: string;
  userId: string;
  tenantId: string;
  fingerprint: string;
  size: number;
  /** Storage key of the blob just written; used unless the tenant already has this content. */
  storageKey: string;
  newBlobId: string;
  file: FilesTable;
  now: number;
}

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

  async touch(id: string, now: number, expiresAt: number): Promise<void> {
    await this.db.updateTable('uploads').set({ updated_at: now, expires_at: expiresAt }).where('id', '=', id).execute();
  }

  async storedChunks(uploadId: string): Promise<Array<{ idx: number; size: number; sha256: string }>> {
    return this.db
      .selectFrom('upload_chunks')
      .select(['idx', 'size', 'sha256'])
      .where('upload_id', '=', uploadId)
      .orderBy('idx')
      .execute();
  }

  /** Records a stored chunk; recording the same chunk twice is a no-op (idempotent re-send). */
  async recordChunk(uploadId: string, idx: number, size: number, sha256: string): Promise<void> {
    await this.db
      .insertInto('upload_chunks')
      .values({ upload_id: uploadId, idx, size, sha256 })
      .onConflict((oc) => oc.columns(['upload_id', 'idx']).doNothing())
      .execute();
  }

  async expiredUploadIds(now: number, limit: number): Promise<string[]> {
    const rows = await this.db.selectFrom('uploads').select('id').where('expires_at', '<=', now).limit(limit).execute();
    return rows.map((r) => r.id);
  }

  async deleteUpload(id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('upload_chunks').where('upload_id', '=', id).execute();
      await tx.deleteFrom('uploads').where('id', '=', id).execute();
    });
  }

  /**
   * Turns a fully received upload into a file, all or nothing: reuse or insert the blob row, check the
   * quota, insert the file row, charge the quota, delete the upload rows.
   */
  async commit(input: CommitUploadInput): Promise<CommitOutcome> {
    try {
      return await this.db.transaction().execute(async (tx) => {
        const upload = await tx
          .selectFrom('uploads')
          .select('id')
          .where('id', '=', input.uploadId)
          .where('user_id', '=', input.userId)
          .executeTakeFirst();
        if (!upload) throw new Rollback('uploadGone');

        const existing = await tx
          .selectFrom('blobs')
          .select('id')
          .where('tenant_id', '=', input.tenantId)
          .where('fingerprint', '=', input.fingerprint)
          .where('size', '=', input.size)
          .executeTakeFirst();
        const blobId = existing?.id ?? input.newBlobId;
        if (!existing) {
          await tx
            .insertInto('blobs')
            .values({
              id: blobId,
              tenant_id: input.tenantId,
              fingerprint: input.fingerprint,
              size: input.size,
              storage_key: input.storageKey,
              created_at: input.now,
            })
            .execute();
        }

        const charged = await tx
          .updateTable('users')
          .set((eb) => ({ used_size: eb('used_size', '+', input.size) }))
          .where('id', '=', input.userId)
          .where((eb) => eb(eb('used_size', '+', input.size), '<=', eb.ref('quota')))
          .executeTakeFirst();
        if (Number(charged.numUpdatedRows) !== 1) throw new Rollback('quota');

        const file = { ...input.file, blob_id: blobId };
        try {
          await tx.insertInto('files').values(file).execute();
        } catch (err) {
          if (isUniqueViolation(err)) throw new Rollback('nameConflict');
          throw err;
        }

        await tx.deleteFrom('upload_chunks').where('upload_id', '=', input.uploadId).execute();
        await tx.deleteFrom('uploads').where('id', '=', input.uploadId).execute();
        return { ok: true as const, file, blobId, reusedExistingBlob: Boolean(existing) };
      });
    } catch (err) {
      if (err instanceof Rollback) return { ok: false, reason: err.reason };
      throw err;
    }
  }
}
