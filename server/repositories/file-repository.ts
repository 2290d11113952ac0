import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { Db } from '../db/database';
import type { BlobsTable, Database, FilesTable } from '../db/schema';

/** Whose files a query may see: every personal-file query is scoped by tenant AND owner. */
export interface OwnerScope {
  tenantId: string;
  ownerId: string;
}

export type SortColumn = 'sort_key' | 'size' | 'updated_at';

/** Position after which the next page starts (the last row of the previous page). */
export interface ListPosition {
  isDir: number;
  value: string | number;
  id: string;
}

/**
 * Which rows a listing reads: the live children of one folder (any space; the caller checked access
 * to the folder), or the live root entries of one personal category.
 */
export type ListParent = { kind: 'folder'; parentId: string } | { kind: 'root'; scope: OwnerScope; category: number };

export interface ListQuery {
  parent: ListParent;
  column: SortColumn;
  descending: boolean;
  after: ListPosition | null;
  limit: number;
  /** Folder picker: folders only. */
  dirsOnly?: boolean;
  /**
   * The user whose favorites mark the rows (`favorite`), read by the page query itself (an `exists`
   * on the favorites' primary key per row) rather than by one more statement.
   */
  favoritesOf?: string;
}

/** A row of a listing: `favorite` is set when the query was asked `favoritesOf` (1/0 on SQLite, true/false on PostgreSQL). */
export type ListedRow = FilesTable & { favorite?: SqlBool };

/** A row of a subtree walk, with its depth below the walked root (0 = the root). */
export type TreeRow = FilesTable & { depth: number };

type FilesEb = ExpressionBuilder<Database, 'files'>;

export class FileRepository {
  constructor(private readonly db: Db) {}

  findOwned(scope: OwnerScope, id: string): Promise<FilesTable | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_id', '=', scope.tenantId)
      .where('owner_id', '=', scope.ownerId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Any row of the tenant (live or deleted); access is decided by the caller. */
  findInTenant(tenantId: string, id: string): Promise<FilesTable | undefined> {
    return this.db.selectFrom('files').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findManyInTenant(tenantId: string, ids: readonly string[]): Promise<FilesTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('files').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', [...ids]).execute();
  }

  /**
   * One page of a folder: folders first, then `column` in the wanted direction, id as tie-breaker.
   * Keyset pagination (WHERE past the last row, no OFFSET) keeps deep pages as cheap as the first.
   * Folders and files are read by two queries with is_dir fixed, so each is one forward or backward
   * walk of a partial index (files_root_* / files_child_*, migration 0005) with no sort step, in
   * either direction (one query ordering is_dir DESC with a column ASC would need a temp B-tree).
   */
  async list(q: ListQuery): Promise<ListedRow[]> {
    const after = q.after;
    const rows: ListedRow[] = [];
    if (!after || after.isDir === 1) rows.push(...(await this.listQuery(q, 1, after).execute()));
    if (rows.length < q.limit && !q.dirsOnly) {
      rows.push(...(await this.listQuery({ ...q, limit: q.limit - rows.length }, 0, after?.isDir === 0 ? after : null).execute()));
    }
    return rows;
  }

  /** The listing query for folders (1) or files (0); tests check its plan with EXPLAIN QUERY PLAN. */
  listQuery(q: ListQuery, isDir: 0 | 1, after: ListPosition | null) {
    const cmp = q.descending ? '<' : '>';
    let query = this.db.selectFrom('files').selectAll().where('deleted_at', 'is', null);
    if (q.parent.kind === 'folder') {
      query = query.where('parent_id', '=', q.parent.parentId);
    } else {
      query = query
        .where('tenant_id', '=', q.parent.scope.tenantId)
        .where('owner_id', '=', q.parent.scope.ownerId)
        .where('category', '=', q.parent.category)
        .where('parent_id', 'is', null);
    }
    query = query.where('is_dir', '=', isDir);
    if (after && after.isDir === isDir) {
      // A row-value comparison is a range on the index (a seek), where OR-ed terms would be a scan.
      query = query.where((eb: FilesEb) => eb(eb.refTuple(q.column, 'id'), cmp, eb.tuple(after.value, after.id)));
    }
    const dir = q.descending ? 'desc' : 'asc';
    const userId = q.favoritesOf;
    return query
      .$if(userId !== undefined, (qb) =>
        qb.select((eb) =>
          eb
            .exists(eb.selectFrom('favorites').select('favorites.file_id').where('favorites.user_id', '=', userId!).whereRef('favorites.file_id', '=', 'files.id'))
            .as('favorite'),
        ),
      )
      .orderBy(q.column, dir)
      .orderBy('id', dir)
      .limit(q.limit);
  }

  /** Which of these folders have at least one live sub-folder (one query). */
  async withSubfolders(parentIds: readonly string[]): Promise<Set<string>> {
    if (parentIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('files')
      .select('parent_id')
      .distinct()
      .where('parent_id', 'in', [...parentIds])
      .where('is_dir', '=', 1)
      .where('deleted_at', 'is', null)
      .execute();
    return new Set(rows.map((r) => r.parent_id!));
  }

  /** Ancestors of an entry (itself included), root first, in one recursive query. */
  async pathTo(tenantId: string, id: string): Promise<Array<{ id: string; name: string; parent_id: string | null }>> {
    const result = await sql<{ id: string; name: string; parent_id: string | null; depth: number }>`
      with recursive chain(id, name, parent_id, depth) as (
        select id, name, parent_id, 0 from files where id = ${id} and tenant_id = ${tenantId}
        union all
        select f.id, f.name, f.parent_id, chain.depth + 1 from files f
          join chain on f.id = chain.parent_id
          where f.tenant_id = ${tenantId} and chain.depth < 1000
      )
      select id, name, parent_id, depth from chain order by depth desc`.execute(this.db);
    return result.rows.map((r) => ({ id: r.id, name: r.name, parent_id: r.parent_id }));
  }

  /**
   * Ancestor chains of several folders at once (search hits' paths): folder id → names root first.
   */
  async pathsOf(tenantId: string, folderIds: readonly string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
    const out = new Map<string, Array<{ id: string; name: string }>>();
    if (folderIds.length === 0) return out;
    const ids = sql.join([...folderIds].map((i) => sql`${i}`));
    const result = await sql<{ start: string; id: string; name: string; depth: number }>`
      with recursive chain(start, id, name, parent_id, depth) as (
        select id, id, name, parent_id, 0 from files where id in (${ids}) and tenant_id = ${tenantId}
        union all
        select chain.start, f.id, f.name, f.parent_id, chain.depth + 1 from files f
          join chain on f.id = chain.parent_id
          where f.tenant_id = ${tenantId} and chain.depth < 1000
      )
      select start, id, name, depth from chain order by start, depth desc`.execute(this.db);
    for (const r of result.rows) {
      const list = out.get(r.start) ?? out.set(r.start, []).get(r.start)!;
      list.push({ id: r.id, name: r.name });
    }
    return out;
  }

  /** The live tree under (and including) an entry, parents before children. */
  async liveTree(tenantId: string, rootId: string): Promise<TreeRow[]> {
    const result = await sql<TreeRow>`
      with recursive tree(id, depth) as (
        select id, 0 from files where id = ${rootId} and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id, tree.depth + 1 from files f join tree on f.parent_id = tree.id
          where f.deleted_at is null and tree.depth < 1000
      )
      select files.*, tree.depth as depth from tree join files on files.id = tree.id order by tree.depth`.execute(this.db);
    return result.rows;
  }

  /** Is `ancestorId` the entry `id` itself or one of its ancestors? */
  async isSelfOrAncestor(tenantId: string, ancestorId: string, id: string): Promise<boolean> {
    const chain = await this.pathTo(tenantId, id);
    return chain.some((r) => r.id === ancestorId);
  }

  /** A locked entry in the live tree of `rootId` held by someone other than `userId`, if any. */
  async lockedByOtherInTree(tenantId: string, rootId: string, userId: string): Promise<FilesTable | undefined> {
    const result = await sql<FilesTable>`
      with recursive tree(id) as (
        select id from files where id = ${rootId} and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id from files f join tree on f.parent_id = tree.id where f.deleted_at is null
      )
      select files.* from tree join files on files.id = tree.id
        where files.locked_by is not null and files.locked_by != ${userId} limit 1`.execute(this.db);
    return result.rows[0];
  }

  /** Live entries at a place with these name keys (one query). */
  liveNamesAt(parent: ListParent, nameKeys: readonly string[]): Promise<FilesTable[]> {
    if (nameKeys.length === 0) return Promise.resolve([]);
    return this.atPlace(parent).selectAll().where('name_key', 'in', [...nameKeys]).execute();
  }

  /** Live name keys at a place matching any LIKE pattern (numbered variants), one query. */
  async namesLikeAt(parent: ListParent, patterns: readonly string[]): Promise<string[]> {
    if (patterns.length === 0) return [];
    const rows = await this.atPlace(parent)
      .select('name_key')
      .where((eb) => eb.or(patterns.map((p) => sql<boolean>`name_key like ${p} escape '\\'`)))
      .execute();
    return rows.map((r) => r.name_key);
  }

  private atPlace(parent: ListParent) {
    const q = this.db.selectFrom('files').where('deleted_at', 'is', null);
    return parent.kind === 'folder'
      ? q.where('parent_id', '=', parent.parentId)
      : q
          .where('tenant_id', '=', parent.scope.tenantId)
          .where('owner_id', '=', parent.scope.ownerId)
          .where('category', '=', parent.category)
          .where('parent_id', 'is', null);
  }

  async insert(row: FilesTable): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  async rename(tenantId: string, id: string, name: string, nameKey: string, now: number): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ name, name_key: nameKey, sort_key: nameSortKey(name), updated_at: now })
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .execute();
  }

  /**
   * Sets or clears the lock on these entries. WebDAV locks (dav_locks, migration 0096) live only
   * under their person's product lock: clearing it (解锁) ends them, and so does another person's lock.
   */
  async setLock(tenantId: string, ids: readonly string[], lockedBy: string | null): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('files').set({ locked_by: lockedBy }).where('tenant_id', '=', tenantId).where('id', 'in', [...ids]).execute();
      let ended = tx.deleteFrom('dav_locks').where('tenant_id', '=', tenantId).where('entry_id', 'in', [...ids]);
      if (lockedBy !== null) ended = ended.where('user_id', '!=', lockedBy);
      await ended.execute();
    });
  }

  findBlob(tenantId: string, blobId: string): Promise<BlobsTable | undefined> {
    return this.db.selectFrom('blobs').selectAll().where('id', '=', blobId).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findBlobs(tenantId: string, blobIds: readonly string[]): Promise<BlobsTable[]> {
    if (blobIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('blobs').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', [...blobIds]).execute();
  }

  // ---- per-page facts (one query each, never per row) ---------------------------------------

  async favoriteIds(userId: string, fileIds: readonly string[]): Promise<Set<string>> {
    if (fileIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('favorites').select('file_id').where('user_id', '=', userId).where('file_id', 'in', [...fileIds]).execute();
    return new Set(rows.map((r) => r.file_id));
  }

  async versionCounts(fileIds: readonly string[]): Promise<Map<string, number>> {
    if (fileIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('file_versions')
      .select(['file_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('file_id', 'in', [...fileIds])
      .groupBy('file_id')
      .execute();
    return new Map(rows.map((r) => [r.file_id, Number(r.n)]));
  }

  async nickNames(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'nick_name', 'username']).where('id', 'in', [...userIds]).execute();
    // A person without a nick name is shown by account.
    return new Map(rows.map((r) => [r.id, r.nick_name || r.username]));
  }
}
