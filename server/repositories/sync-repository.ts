import { sql } from 'kysely';
import type { Db } from '../db/database';

/** A live entry of a synced subtree with its content fingerprint (one query for the whole tree). */
export interface SyncRow {
  id: string;
  parent_id: string | null;
  name: string;
  is_dir: number;
  size: number;
  updated_at: number;
  locked_by: string | null;
  fingerprint: string | null;
  depth: number;
}

/** The desktop sync's queries: whole subtrees and the tenant's sync settings. */
export class SyncRepository {
  constructor(private readonly db: Db) {}

  /**
   * `rootId` and every live entry under it, parents before children (by depth), each with its
   * content's fingerprint: one recursive walk over the parent index plus the blob look-ups, in one
   * statement, so the answer is a consistent snapshot.
   */
  async liveSubtree(tenantId: string, rootId: string): Promise<SyncRow[]> {
    const result = await sql<SyncRow>`
      with recursive tree(id, depth) as (
        select id, 0 from files where id = ${rootId} and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id, tree.depth + 1 from files f join tree on f.parent_id = tree.id where f.deleted_at is null
      )
      select f.id, f.parent_id, f.name, f.is_dir, f.size, f.updated_at, f.locked_by, b.fingerprint, tree.depth
        from tree join files f on f.id = tree.id left join blobs b on b.id = f.blob_id
        order by tree.depth`.execute(this.db);
    return result.rows.map((r) => ({ ...r, size: Number(r.size), updated_at: Number(r.updated_at), is_dir: Number(r.is_dir), depth: Number(r.depth) }));
  }

  async settings(tenantId: string): Promise<{ syncTimeMinutes: number | null; secretMarks: string[] }> {
    const row = await this.db.selectFrom('tenant_settings').select(['sync_time_minutes', 'secret_marks']).where('tenant_id', '=', tenantId).executeTakeFirst();
    return {
      syncTimeMinutes: row?.sync_time_minutes ?? null,
      secretMarks: row?.secret_marks ? (JSON.parse(row.secret_marks) as string[]) : [],
    };
  }

  async saveSyncTime(tenantId: string, minutes: number): Promise<void> {
    await this.db
      .insertInto('tenant_settings')
      .values({ tenant_id: tenantId, blocked_extensions: null, sensitive_keywords: null, sync_time_minutes: minutes })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ sync_time_minutes: minutes }))
      .execute();
  }
}
