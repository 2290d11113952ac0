import { sql, type Transaction } from 'kysely';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import type { BlobsTable, Database, FilesTable, FileVersionsTable } from '../db/schema';
import { ContentReplaceRefused, replaceContent, type ContentEditor } from './content-replacement';
import { forUpdate, notBelowZero, sqliteOnly } from '../db/dialect';
import { planEachTime } from '../db/pg-prepared';

type Tx = Transaction<Database>;

/** A write refused inside a transaction (rolled back): the service maps it to a coded error. */
export class TreeWriteRefused extends Error {
  constructor(readonly reason: 'nameConflict' | 'quota' | 'gone' | 'locked' | 'forbidden') {
    super(reason);
  }
}

/** Blobs no row references any more: their bytes can go once the transaction committed. */
export type FreedBlob = Pick<BlobsTable, 'id' | 'storage_key' | 'chunk_size' | 'chunk_count' | 'size'>;

/** SQLite allows a bounded number of bound parameters; long id lists go in slices. */
const SLICE = 500;
function slices<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += SLICE) out.push(list.slice(i, i + SLICE));
  return out;
}

/** The live tree under an entry, as a recursive CTE usable inside statements. */
const liveTreeIds = (rootId: string) => sql`
  with recursive tree(id) as (
    select id from files where id = ${rootId} and deleted_at is null
    union all
    select f.id from files f join tree on f.parent_id = tree.id where f.deleted_at is null
  ) select id from tree`;

/**
 * Multi-row writes on file trees (recycle bin, copy, move, versions), each one transaction so a
 * crash or a refusal leaves the tree as it was.
 */
export class TreeRepository {
  constructor(private readonly db: Db) {}

  /** Moves an entry and its live tree to the recycle bin; returns the number of rows. */
  async trash(tenantId: string, rootId: string, userId: string, ancestorNames: string[], now: number): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const res = await sql`
        update files set deleted_at = ${now}, deleted_by = ${userId}, trash_root_id = ${rootId}
        where tenant_id = ${tenantId} and id in (${liveTreeIds(rootId)})`.execute(tx);
      await tx.updateTable('files').set({ trash_path: JSON.stringify(ancestorNames) }).where('id', '=', rootId).execute();
      return Number(res.numAffectedRows ?? 0);
    });
  }

  /** The caller's recycle bin: the roots they deleted, newest first, keyset by (deleted_at, id). */
  trashPage(tenantId: string, userId: string, after: { deletedAt: number; id: string } | null, limit: number): Promise<FilesTable[]> {
    return this.trashPageQuery(tenantId, userId, after, limit).execute();
  }

  /** The recycle-bin page query (tests check its plan). */
  trashPageQuery(tenantId: string, userId: string, after: { deletedAt: number; id: string } | null, limit: number) {
    let q = this.db
      .selectFrom('files')
      .selectAll()
      .where('deleted_by', '=', userId)
      .where(sql<boolean>`trash_root_id = id`)
      .where('tenant_id', '=', tenantId);
    if (after) q = q.where((eb) => eb(eb.refTuple('deleted_at', 'id'), '<', eb.tuple(after.deletedAt, after.id)));
    // Its generic plan on PostgreSQL walked every user's deleted entries (db/pg-prepared.ts).
    return planEachTime(q.orderBy('deleted_at', 'desc').orderBy('id', 'desc').limit(limit));
  }

  /** Deleted roots of a user, all of them (empty the bin), or older than `before` for everybody. */
  async trashRoots(
    tenantId: string | null,
    userId: string | null,
    before: number | null,
    limit: number,
  ): Promise<Array<Pick<FilesTable, 'id' | 'tenant_id' | 'name' | 'is_dir'>>> {
    // The names are for the action log, which records what was purged.
    let q = this.db.selectFrom('files').select(['id', 'tenant_id', 'name', 'is_dir']).where(sql<boolean>`trash_root_id = id`);
    if (tenantId) q = q.where('tenant_id', '=', tenantId);
    if (userId) q = q.where('deleted_by', '=', userId);
    if (before !== null) q = q.where('deleted_at', '<', before);
    return q.limit(limit).execute();
  }

  /**
   * Brings a deleted root and its tree back under `parentId` (maybe renamed). A name taken meanwhile
   * makes the unique index refuse it: nameConflict, nothing changed.
   */
  async restore(rootId: string, parentId: string | null, name: string, nameKey: string, now: number): Promise<void> {
    try {
      await this.db.transaction().execute(async (tx) => {
        await tx
          .updateTable('files')
          .set({ deleted_at: null, deleted_by: null, trash_root_id: null })
          .where('trash_root_id', '=', rootId)
          .where('id', '!=', rootId)
          .execute();
        await tx
          .updateTable('files')
          .set({ deleted_at: null, deleted_by: null, trash_root_id: null, trash_path: null, parent_id: parentId, name, name_key: nameKey, sort_key: nameSortKey(name), updated_at: now })
          .where('id', '=', rootId)
          .execute();
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new TreeWriteRefused('nameConflict');
      throw err;
    }
  }

  /**
   * Deletes deleted roots and their trees for good: their versions, favorites, the quota they
   * used (given back to each owner), and every blob nobody references any more (returned, so the
   * caller removes the bytes after the commit). `roots`: those it purged. Two purges of the same
   * roots at once (a user's and the sweeper's, or two processes' sweepers) give the quota back once:
   * the roots are claimed first, and the second finds them gone.
   */
  async purge(rootIds: readonly string[]): Promise<{ rows: number; freed: FreedBlob[]; roots: string[] }> {
    if (rootIds.length === 0) return { rows: 0, freed: [], roots: [] };
    return this.db.transaction().execute(async (tx) => {
      // Rows are deleted in one statement; children and parents go together, checked at commit.
      await sqliteOnly(tx, sql`pragma defer_foreign_keys = on`);
      let rows = 0;
      const candidates = new Set<string>();
      const roots: string[] = [];
      for (const wanted of slices(rootIds)) {
        const claimed = await forUpdate(tx, tx.selectFrom('files').select('id').where('id', 'in', [...wanted]).where('deleted_at', 'is not', null)).execute();
        const part = claimed.map((r) => r.id);
        if (part.length === 0) continue;
        roots.push(...part);
        const inTrees = sql`select id from files where trash_root_id in (${sql.join(part.map((id) => sql`${id}`))})`;
        const blobs = await sql<{ blob_id: string }>`
          select blob_id from files where id in (${inTrees}) and blob_id is not null
          union select blob_id from file_versions where file_id in (${inTrees})`.execute(tx);
        for (const b of blobs.rows) candidates.add(b.blob_id);
        // Quota: each owner gets back what their files and the files' kept versions counted.
        const charged = await sql<{ owner_id: string; bytes: number }>`
          select owner_id, sum(bytes) as bytes from (
            select owner_id, size as bytes from files where id in (${inTrees}) and is_dir = 0
            union all
            select f.owner_id, v.size from file_versions v join files f on f.id = v.file_id where f.id in (${inTrees})
          ) as charged group by owner_id`.execute(tx);
        for (const c of charged.rows) {
          await sql`update users set used_size = ${notBelowZero(sql`used_size - ${Number(c.bytes)}`)} where id = ${c.owner_id}`.execute(tx);
        }
        await sql`delete from file_versions where file_id in (${inTrees})`.execute(tx);
        await sql`delete from favorites where file_id in (${inTrees})`.execute(tx);
        // Entries deleted separately earlier from inside these trees lose their (purged) parent;
        // their trash_path still lets a restore recreate the folders.
        await sql`update files set parent_id = null where parent_id in (${inTrees}) and id not in (${inTrees})`.execute(tx);
        const res = await sql`delete from files where id in (${inTrees})`.execute(tx);
        rows += Number(res.numAffectedRows ?? 0);
      }
      const freed = await deleteUnreferencedBlobs(tx, [...candidates]);
      return { rows, freed, roots };
    });
  }

  /**
   * Inserts a copied tree (rows ordered parents first) and charges `bytes` to the user's quota, in
   * one transaction, with the WebDAV dead properties of each source entry (`copiedFrom`: [source id,
   * copy id] pairs). A name taken meanwhile or a full quota refuses it all.
   */
  async insertTree(rows: readonly FilesTable[], chargeUserId: string, bytes: number, copiedFrom: ReadonlyArray<readonly [string, string]> = []): Promise<void> {
    try {
      await this.db.transaction().execute(async (tx) => {
        if (bytes > 0) await charge(tx, chargeUserId, bytes);
        for (const part of slices(rows)) await tx.insertInto('files').values(part).execute();
        for (const part of slices(copiedFrom)) await copyDeadProperties(tx, part);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new TreeWriteRefused('nameConflict');
      throw err;
    }
  }

  /**
   * Moves an entry under another parent (maybe renamed). Its tree takes the target's category and
   * space; moving into personal files makes the caller the owner of the whole tree, and the bytes
   * (contents and kept versions) other owners were charged for move to the caller's quota
   * (refused when it would overflow).
   */
  async move(
    rootId: string,
    to: { parentId: string | null; category: number; spaceId: string | null; ownerId: string | null },
    name: string,
    nameKey: string,
    now: number,
  ): Promise<void> {
    try {
      await this.db.transaction().execute(async (tx) => {
        await tx
          .updateTable('files')
          .set({ parent_id: to.parentId, name, name_key: nameKey, sort_key: nameSortKey(name), updated_at: now })
          .where('id', '=', rootId)
          .execute();
        if (to.ownerId !== null) {
          const tree = liveTreeIds(rootId);
          const charged = await sql<{ owner_id: string; bytes: number }>`
            select owner_id, sum(bytes) as bytes from (
              select owner_id, size as bytes from files where id in (${tree}) and is_dir = 0
              union all
              select f.owner_id, v.size from file_versions v join files f on f.id = v.file_id where f.id in (${tree})
            ) as charged where owner_id != ${to.ownerId} group by owner_id`.execute(tx);
          let total = 0;
          for (const c of charged.rows) {
            total += Number(c.bytes);
            await sql`update users set used_size = ${notBelowZero(sql`used_size - ${Number(c.bytes)}`)} where id = ${c.owner_id}`.execute(tx);
          }
          if (total > 0) await charge(tx, to.ownerId, total);
        }
        const owner = to.ownerId === null ? sql`owner_id` : sql`${to.ownerId}`;
        await sql`update files set category = ${to.category}, space_id = ${to.spaceId}, owner_id = ${owner}
          where id in (${liveTreeIds(rootId)})`.execute(tx);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new TreeWriteRefused('nameConflict');
      throw err;
    }
  }

  /**
   * Gives a file new content, keeping the old one as a version (through replaceContent, which
   * checks the editor's right to modify it and the lock), and charges the new size to the editor.
   */
  async newVersion(editor: ContentEditor, fileId: string, content: { blobId: string; size: number }, now: number): Promise<void> {
    try {
      await this.db.transaction().execute(async (tx) => {
        await replaceContent(tx, editor, fileId, content, now);
        await charge(tx, editor.userId, content.size);
      });
    } catch (err) {
      if (err instanceof ContentReplaceRefused) throw new TreeWriteRefused(err.reason);
      throw err;
    }
  }

  versions(fileId: string): Promise<FileVersionsTable[]> {
    return this.db.selectFrom('file_versions').selectAll().where('file_id', '=', fileId).orderBy('version_no', 'desc').execute();
  }

  findVersion(tenantId: string, versionId: string): Promise<FileVersionsTable | undefined> {
    return this.db.selectFrom('file_versions').selectAll().where('id', '=', versionId).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  /** Favorites: add (idempotent) and remove. */
  async addFavorites(userId: string, fileIds: readonly string[], now: number): Promise<void> {
    for (const part of slices(fileIds)) {
      await this.db
        .insertInto('favorites')
        .values(part.map((file_id) => ({ user_id: userId, file_id, created_at: now })))
        .onConflict((oc) => oc.columns(['user_id', 'file_id']).doNothing())
        .execute();
    }
  }

  async removeFavorites(userId: string, fileIds: readonly string[]): Promise<void> {
    for (const part of slices(fileIds)) await this.db.deleteFrom('favorites').where('user_id', '=', userId).where('file_id', 'in', part).execute();
  }

  /** The user's favorites that are still live, newest first, keyset by (created_at, file_id). */
  favoritePage(tenantId: string, userId: string, after: { at: number; id: string } | null, limit: number) {
    let q = this.db
      .selectFrom('favorites as fav')
      .innerJoin('files', 'files.id', 'fav.file_id')
      .selectAll('files')
      .select('fav.created_at as favorited_at')
      .where('fav.user_id', '=', userId)
      .where('files.tenant_id', '=', tenantId)
      .where('files.deleted_at', 'is', null);
    if (after) {
      q = q.where((eb) => eb.or([eb('fav.created_at', '<', after.at), eb.and([eb('fav.created_at', '=', after.at), eb('fav.file_id', '<', after.id)])]));
    }
    return q.orderBy('fav.created_at', 'desc').orderBy('fav.file_id', 'desc').limit(limit).execute();
  }
}

/** Adds `bytes` to the user's used size, refused (quota) beyond their quota. */
async function charge(tx: Tx, userId: string, bytes: number): Promise<void> {
  const res = await tx
    .updateTable('users')
    .set((eb) => ({ used_size: eb('used_size', '+', bytes) }))
    .where('id', '=', userId)
    .where((eb) => eb(eb('used_size', '+', bytes), '<=', eb.ref('quota')))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw new TreeWriteRefused('quota');
}

/** Deletes the blob rows among `ids` nothing references; returns them. */
async function deleteUnreferencedBlobs(tx: Tx, ids: readonly string[]): Promise<FreedBlob[]> {
  const freed: FreedBlob[] = [];
  for (const part of slices(ids)) {
    const rows = await tx
      .deleteFrom('blobs')
      .where('id', 'in', part)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('files').select('files.id').whereRef('files.blob_id', '=', 'blobs.id'))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('file_versions').select('file_versions.id').whereRef('file_versions.blob_id', '=', 'blobs.id'))))
      .returning(['id', 'storage_key', 'chunk_size', 'chunk_count', 'size'])
      .execute();
    freed.push(...rows);
  }
  return freed;
}

/** The dead properties (migration 0096) of copied entries, given to their copies: pairs [source id, copy id]. */
async function copyDeadProperties(tx: Transaction<Database>, pairs: ReadonlyArray<readonly [string, string]>): Promise<void> {
  if (pairs.length === 0) return;
  // column1 = source, column2 = copy: the names both engines give a VALUES list's columns.
  const values = sql.join(pairs.map(([from, to]) => sql`(${from}, ${to})`));
  await sql`insert into dav_properties (entry_id, ns, name, value_xml)
    select pairs.column2, p.ns, p.name, p.value_xml
    from (values ${values}) as pairs join dav_properties p on p.entry_id = pairs.column1`.execute(tx);
}
