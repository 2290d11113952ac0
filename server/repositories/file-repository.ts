import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { BlobsTable, Database, FilesTable } from '../db/schema';

/** Whose files a query may see: every file query is scoped by tenant AND owner. */
export interface OwnerScope {
  tenantId: string;
  ownerId: string;
}

export type SortColumn = 'name_key' | 'size' | 'updated_at';

/** Position after which the next page starts (the last row of the previous page). */
export interface ListPosition {
  isDir: number;
  value: string | number;
  id: string;
}

export interface ListQuery {
  parentId: string | null;
  category: number;
  column: SortColumn;
  descending: boolean;
  after: ListPosition | null;
  limit: number;
}

export class FileRepository {
  constructor(private readonly db: Db) {}

  findOwned(scope: OwnerScope, id: string): Promise<FilesTable | undefined> {
    return this.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_id', '=', scope.tenantId)
      .where('owner_id', '=', scope.ownerId)
      .executeTakeFirst();
  }

  /**
   * One page of a folder: folders first, then `column` in the wanted direction, id as tie-breaker.
   * Keyset pagination (WHERE past the last row, no OFFSET) keeps deep pages as cheap as the first.
   */
  list(scope: OwnerScope, q: ListQuery): Promise<FilesTable[]> {
    const cmp = q.descending ? '<' : '>';
    let query = this.db
      .selectFrom('files')
      .selectAll()
      .where('tenant_id', '=', scope.tenantId)
      .where('owner_id', '=', scope.ownerId)
      .where('category', '=', q.category)
      .where((eb) => (q.parentId === null ? eb('parent_id', 'is', null) : eb('parent_id', '=', q.parentId)));
    const after = q.after;
    if (after) {
      query = query.where((eb: ExpressionBuilder<Database, 'files'>) =>
        eb.or([
          eb('is_dir', '<', after.isDir),
          eb.and([
            eb('is_dir', '=', after.isDir),
            eb.or([
              eb(q.column, cmp, after.value),
              eb.and([eb(q.column, '=', after.value), eb('id', cmp, after.id)]),
            ]),
          ]),
        ]),
      );
    }
    const dir = q.descending ? 'desc' : 'asc';
    return query.orderBy('is_dir', 'desc').orderBy(q.column, dir).orderBy('id', dir).limit(q.limit).execute();
  }

  /** Ancestors of a folder (itself included), root first, in one recursive query. */
  async pathTo(scope: OwnerScope, id: string): Promise<Array<{ id: string; name: string }>> {
    const result = await sql<{ id: string; name: string; depth: number }>`
      with recursive chain(id, name, parent_id, depth) as (
        select id, name, parent_id, 0 from files
          where id = ${id} and tenant_id = ${scope.tenantId} and owner_id = ${scope.ownerId}
        union all
        select f.id, f.name, f.parent_id, chain.depth + 1 from files f
          join chain on f.id = chain.parent_id
          where f.tenant_id = ${scope.tenantId} and f.owner_id = ${scope.ownerId} and chain.depth < 1000
      )
      select id, name, depth from chain order by depth desc`.execute(this.db);
    return result.rows.map((r) => ({ id: r.id, name: r.name }));
  }

  async insert(row: FilesTable): Promise<void> {
    await this.db.insertInto('files').values(row).execute();
  }

  async rename(scope: OwnerScope, id: string, name: string, nameKey: string, now: number): Promise<void> {
    await this.db
      .updateTable('files')
      .set({ name, name_key: nameKey, updated_at: now })
      .where('id', '=', id)
      .where('tenant_id', '=', scope.tenantId)
      .where('owner_id', '=', scope.ownerId)
      .execute();
  }

  findBlob(tenantId: string, blobId: string): Promise<BlobsTable | undefined> {
    return this.db
      .selectFrom('blobs')
      .selectAll()
      .where('id', '=', blobId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
  }
}
