/**
 * The commit of an upload inside a transaction (chunked merge, second upload, the small-file batch):
 * the blob row, the quota charge, the file placed under the conflict policy — or, for 上传新版本 by id,
 * the addressed file's new content — and the finished-upload record. UploadRepository.commit runs it
 * in a transaction of its own; the batch in savepoints of one.
 */
import { sql, type Transaction } from 'kysely';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { ConflictPolicy, IfMatch } from '../../common/transfer/protocol';
import { isUniqueViolation } from '../db/database';
import type { Database, FilesTable } from '../db/schema';
import { freeName, numberedLikePattern } from '../services/naming';
import { ContentReplaceRefused, replaceContent, type ContentEditor } from './content-replacement';
import { documentKindOf } from '../../common/files/documents';
import { queueDocumentJob } from './document-job-repository';
import { stampExchange } from './exchange-repository';

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
