import { sql, type Transaction } from 'kysely';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { ConflictPolicy, IfMatch } from '../../common/transfer/protocol';
import type { Db } from '../db/database';
import { stampExchange } from './exchange-repository';
import { isUniqueViolation } from '../db/database';
import type { Database, FilesTable, UploadsTable } from '../db/schema';
import { freeName, numberedLikePattern } from '../services/naming';
import { ContentReplaceRefused, replaceContent, type ContentEditor } from './content-replacement';
import { sqliteOnly } from '../db/dialect';
import { documentKindOf } from '../../common/files/documents';
import { queueDocumentJob } from './document-job-repository';

/**
 * What a chunk request needs of its upload: not the digest list, which grows with the file (a 10 GiB
 * file in 256 KiB chunks announces 40,960 digests) and was read and parsed three times per chunk.
 */
export type ChunkTarget = Pick<UploadsTable, 'id' | 'fingerprint' | 'size' | 'chunk_size' | 'chunk_count' | 'merge_blob_id'>;

/** `finished`: the client's key for the item already created a file (a repeat whose first answer was lost). */
export type CommitFailure = 'uploadGone' | 'quota' | 'nameConflict' | 'locked' | 'forbidden' | 'blobGone' | 'finished' | 'changed' | 'fileGone';

export type CommitOutcome =
  | { ok: true; file: FilesTable; blobId: string; reusedExistingBlob: boolean; replacedVersion: boolean }
  | { ok: false; reason: CommitFailure };

/** Thrown inside a transaction to roll it back with a reason. */
export class Rollback extends Error {
  constructor(readonly reason: CommitFailure) {
    super(reason);
  }
}

/** The content the new file gets. */
export type CommitBlob =
  /**
   * Bytes just put in the store under `id` (used unless the tenant already has the content): an
   * upload's ordered chunk files (`layout`), or one piece (`layout: null`, createTxt). The fingerprint
   * was computed at `fingerprintChunkSize` (the blob records it: migration 0084).
   */
  | { kind: 'new'; id: string; layout: { chunkSize: number; chunkCount: number } | null; fingerprintChunkSize: number }
  /** Content the tenant already stores (second upload): must still exist. */
  | { kind: 'existing'; id: string };

export interface CommitInput {
  /** The upload being completed (its rows are deleted in the same transaction); null for second upload. */
  uploadId: string | null;
  /** The uploader: owns the new file, is charged, and must be allowed to replace a clashing one. */
  editor: ContentEditor;
  fingerprint: string;
  size: number;
  blob: CommitBlob;
  /** The file row to create (name, parent, category...); blob_id is filled in. */
  file: FilesTable;
  onConflict: ConflictPolicy;
  /** With 'newVersion': the clashing file must be this one at this content, else 'changed'. */
  ifMatch?: IfMatch | null;
  /**
   * 上传新版本 by id (common/api/schemas.ts VersionOf): the new content replaces this file's, wherever it
   * sits (no name look-up; `file` only carries size and blob); gone since → 'fileGone'.
   */
  versionOf?: string | null;
  now: number;
  /** The client's key for the item (protocol.ts, "Finished uploads"): recorded with the file, once. */
  clientKey?: string;
  /**
   * A merge's blob directory, recorded as the upload's merge intent before the chunks were renamed into
   * it: the commit happens only while the upload still names it. A merge whose lock was lost (its process
   * frozen past the lease) and whose upload another process took over since (rolling the directory back,
   * merging anew) is refused here, so it never records a blob whose directory is gone.
   */
  mergeIntent?: string;
}

export type Tx = Transaction<Database>;

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

/**
 * Puts a new file row in its folder under the conflict policy (inside the caller's transaction):
 * - free name → insert;
 * - 'fail' → nameConflict;
 * - 'rename' → the first free 'name (n).ext' (one query for the taken numbered names);
 * - 'newVersion' → the existing file keeps its id and gets the new blob; its previous blob becomes a
 *   file_versions row (version_no = highest + 1). A folder of that name, or a file locked by another
 *   user, cannot be replaced.
 */
/**
 * The commit's steps inside the caller's transaction; a refusal throws Rollback (the caller rolls
 * back the transaction, or a savepoint: the small-file batch commits many files in one transaction).
 */
export async function commitInTx(tx: Tx, input: CommitInput): Promise<Extract<CommitOutcome, { ok: true }>> {
  if (input.clientKey !== undefined) {
    const earlier = await tx
      .selectFrom('finished_uploads')
      .select('file_id')
      .where('user_id', '=', input.editor.userId)
      .where('client_key', '=', input.clientKey)
      .executeTakeFirst();
    if (earlier) throw new Rollback('finished');
  }
  if (input.uploadId !== null) {
    const upload = await tx
      .selectFrom('uploads')
      .select(['id', 'merge_blob_id'])
      .where('id', '=', input.uploadId)
      .where('user_id', '=', input.editor.userId)
      .executeTakeFirst();
    if (!upload || (input.mergeIntent !== undefined && upload.merge_blob_id !== input.mergeIntent)) throw new Rollback('uploadGone');
  }

  // The blob of this content, if one is stored (asked again below when a concurrent merge won the insert).
  const findBlob = () =>
    tx
      .selectFrom('blobs')
      .select('id')
      .where('tenant_id', '=', input.editor.tenantId)
      .where('fingerprint', '=', input.fingerprint)
      .where('size', '=', input.size)
      .executeTakeFirst();
  const existing = await findBlob();
  let blobId: string;
  if (input.blob.kind === 'existing') {
    if (!existing || existing.id !== input.blob.id) throw new Rollback('blobGone');
    blobId = existing.id;
  } else if (existing) {
    blobId = existing.id;
  } else {
    blobId = input.blob.id;
    // On conflict: another merge of the same content committed this blob since the look-up above
    // (concurrent transactions on PostgreSQL; SQLite serialises them, so it never happens there).
    // PostgreSQL waits for that merge to commit, then the blob is visible: use it.
    const inserted = await tx
      .insertInto('blobs')
      .values({
        id: blobId,
        tenant_id: input.editor.tenantId,
        fingerprint: input.fingerprint,
        size: input.size,
        storage_key: input.blob.id,
        created_at: input.now,
        chunk_size: input.blob.layout?.chunkSize ?? null,
        chunk_count: input.blob.layout?.chunkCount ?? null,
        fingerprint_chunk_size: input.blob.fingerprintChunkSize,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'fingerprint']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
      const winner = await findBlob();
      if (!winner) throw new Rollback('blobGone');
      blobId = winner.id;
    }
  }

  const charged = await tx
    .updateTable('users')
    .set((eb) => ({ used_size: eb('used_size', '+', input.size) }))
    .where('id', '=', input.editor.userId)
    .where((eb) => eb(eb('used_size', '+', input.size), '<=', eb.ref('quota')))
    .executeTakeFirst();
  if (Number(charged.numUpdatedRows) !== 1) throw new Rollback('quota');

  const placed = input.versionOf
    ? await replaceById(tx, input.versionOf, { ...input.file, blob_id: blobId }, input.editor, input.now, input.ifMatch ?? null)
    : await placeFile(tx, { ...input.file, blob_id: blobId }, input.onConflict, input.editor, input.now, input.ifMatch ?? null);
  // An exchange-area file remembers which network build put it (or its new content) there.
  await stampExchange(tx, placed.file, input.editor.side, input.now);
  // A document's rendition, text and thumbnail are made in the background, once per blob (issue 41).
  const documentKind = documentKindOf(placed.file.name);
  if (documentKind) await queueDocumentJob(tx, { blobId, tenantId: input.editor.tenantId, kind: documentKind, name: placed.file.name, size: input.size, now: input.now });

  if (input.clientKey !== undefined) {
    try {
      await tx
        .insertInto('finished_uploads')
        .values({ user_id: input.editor.userId, client_key: input.clientKey, file_id: placed.file.id, finished_at: input.now })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new Rollback('finished');
      throw err;
    }
  }
  if (input.uploadId !== null) {
    await tx.deleteFrom('upload_chunks').where('upload_id', '=', input.uploadId).execute();
    await tx.deleteFrom('uploads').where('id', '=', input.uploadId).execute();
  }
  return {
    ok: true as const,
    file: placed.file,
    blobId,
    reusedExistingBlob: input.blob.kind === 'new' && blobId !== input.blob.id,
    replacedVersion: placed.replacedVersion,
  };
}

async function placeFile(
  tx: Tx,
  file: FilesTable,
  policy: ConflictPolicy,
  editor: ContentEditor,
  now: number,
  ifMatch: IfMatch | null = null,
): Promise<{ file: FilesTable; replacedVersion: boolean }> {
  // Inside a folder the entry takes the folder's category and space (a group folder's children
  // belong to the group); names are unique among the folder's live children, whoever owns them.
  let foreignFolder = false;
  if (file.parent_id !== null) {
    const parent = await tx.selectFrom('files').select(['category', 'space_id', 'owner_id']).where('id', '=', file.parent_id).executeTakeFirst();
    if (parent) file = { ...file, category: parent.category, space_id: parent.space_id ?? null };
    // A personal folder holds only its owner's entries: someone editing through a share may give
    // its files new content, never add entries to it (common/api/sharing.ts).
    foreignFolder = !!parent && parent.space_id == null && parent.owner_id !== file.owner_id;
  }
  const inFolder = (q: ReturnType<typeof selectFiles>) => {
    const live = q.where('deleted_at', 'is', null);
    return file.parent_id !== null
      ? live.where('parent_id', '=', file.parent_id)
      : live
          .where('tenant_id', '=', file.tenant_id)
          .where('owner_id', '=', file.owner_id)
          .where('category', '=', file.category)
          .where('parent_id', 'is', null);
  };
  const selectFiles = () => tx.selectFrom('files');

  const clash = await inFolder(selectFiles()).selectAll().where('name_key', '=', file.name_key).executeTakeFirst();
  if (foreignFolder && !(clash && policy === 'newVersion')) throw new Rollback('forbidden');
  if (!clash) {
    await insertOrConflict(tx, file);
    return { file, replacedVersion: false };
  }
  if (policy === 'rename') {
    const taken = await inFolder(selectFiles())
      .select('name_key')
      .where(sql<boolean>`name_key like ${numberedLikePattern(file.name)} escape '\\'`)
      .execute();
    const name = freeName(file.name, new Set([file.name_key, ...taken.map((r) => r.name_key)]));
    const renamed = { ...file, name, name_key: name.toLowerCase(), sort_key: nameSortKey(name) };
    await insertOrConflict(tx, renamed);
    return { file: renamed, replacedVersion: false };
  }
  // With ifMatch a folder or an empty entry of that name is a change ('changed'), else a plain clash.
  if (policy === 'newVersion' && (ifMatch || (clash.is_dir === 0 && clash.blob_id))) return newContent(tx, clash, file, editor, now, ifMatch, 'nameConflict');
  throw new Rollback('nameConflict');
}

/**
 * The new content of an existing file (the clash of a 'newVersion' upload, or the file addressed by
 * id), through the one content gate (replaceContent: role or share grant, lock). With ifMatch (the
 * desktop sync) only while it is that file at that content. A file gone since answers `gone`.
 */
async function newContent(
  tx: Tx,
  target: FilesTable,
  file: FilesTable,
  editor: ContentEditor,
  now: number,
  ifMatch: IfMatch | null,
  gone: CommitFailure,
): Promise<{ file: FilesTable; replacedVersion: boolean }> {
  if (ifMatch) {
    // Optimistic concurrency (the desktop sync): it must still be that file at that content.
    if (target.id !== ifMatch.fileId || target.is_dir === 1 || !target.blob_id) throw new Rollback('changed');
    if (ifMatch.fingerprint !== null) {
      const current = await tx.selectFrom('blobs').select('fingerprint').where('id', '=', target.blob_id).executeTakeFirst();
      if (current?.fingerprint !== ifMatch.fingerprint) throw new Rollback('changed');
    }
  }
  try {
    const replaced = await replaceContent(tx, editor, target.id, { blobId: file.blob_id!, size: file.size }, now);
    return { file: replaced, replacedVersion: true };
  } catch (err) {
    if (err instanceof ContentReplaceRefused) throw new Rollback(err.reason === 'gone' ? gone : err.reason);
    throw err;
  }
}

/** 上传新版本 by id (CommitInput.versionOf): no name look-up, the file itself gets the content. */
async function replaceById(
  tx: Tx,
  fileId: string,
  file: FilesTable,
  editor: ContentEditor,
  now: number,
  ifMatch: IfMatch | null,
): Promise<{ file: FilesTable; replacedVersion: boolean }> {
  const target = await tx.selectFrom('files').selectAll().where('id', '=', fileId).where('tenant_id', '=', editor.tenantId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!target || target.is_dir === 1 || !target.blob_id) throw new Rollback('fileGone');
  return newContent(tx, target, file, editor, now, ifMatch, 'fileGone');
}

async function insertOrConflict(tx: Tx, file: FilesTable): Promise<void> {
  try {
    await tx.insertInto('files').values(file).execute();
  } catch (err) {
    if (isUniqueViolation(err)) throw new Rollback('nameConflict');
    throw err;
  }
}
