import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { recursiveWalkOrder } from '../db/dialect';

/** A live entry of a synced subtree with its content fingerprint (one query for the whole tree). */
export interface SyncRow {
  id: string;
  parent_id: string | null;
  name: string;
  is_dir: number;
  size: number;
  updated_at: number;
  locked_by: string | null;
  blob_id: string | null;
  fingerprint: string | null;
}

/** The desktop sync's queries: whole subtrees and the tenant's classification marks. */
export class SyncRepository {
  constructor(private readonly db: Db) {}

  /**
   * `rootId` and every live entry under it, parents before children (the recursive walk is breadth
   * first), each with its content's fingerprint, in one statement: a consistent snapshot. The row's
   * columns are carried through the walk (joining `files` again made SQLite scan the whole table).
   */
  async liveSubtree(tenantId: string, rootId: string): Promise<SyncRow[]> {
    const result = await sql<SyncRow>`
      with recursive tree(id, parent_id, name, is_dir, size, updated_at, locked_by, blob_id, depth) as (
        select id, parent_id, name, is_dir, size, updated_at, locked_by, blob_id, 0
          from files where id = ${rootId} and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id, f.parent_id, f.name, f.is_dir, f.size, f.updated_at, f.locked_by, f.blob_id, tree.depth + 1
          from files f join tree on f.parent_id = tree.id where f.deleted_at is null
      )
      select tree.id, tree.parent_id, tree.name, tree.is_dir, tree.size, tree.updated_at, tree.locked_by, tree.blob_id, b.fingerprint
        from tree left join blobs b on b.id = tree.blob_id ${recursiveWalkOrder(this.db)}`.execute(this.db);
    return result.rows.map((r) => ({ ...r, size: Number(r.size), updated_at: Number(r.updated_at), is_dir: Number(r.is_dir) }));
  }

  /**
   * The subtree's version: SHA-256 over every live entry's id, parent, name, kind, size, time, lock
   * and blob, in walk order, without the blob look-ups (the blob id changes with the content). What
   * an idle sync pass asks: 100,000 entries in ~0.4 s here.
   */
  async subtreeVersion(tenantId: string, rootId: string, lockerOf: (lockedBy: string | null) => string): Promise<string> {
    const result = await sql<{ id: string; parent_id: string | null; name: string; is_dir: number; size: number; updated_at: number; locked_by: string | null; blob_id: string | null }>`
      with recursive tree(id, parent_id, name, is_dir, size, updated_at, locked_by, blob_id, depth) as (
        select id, parent_id, name, is_dir, size, updated_at, locked_by, blob_id, 0
          from files where id = ${rootId} and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id, f.parent_id, f.name, f.is_dir, f.size, f.updated_at, f.locked_by, f.blob_id, tree.depth + 1
          from files f join tree on f.parent_id = tree.id where f.deleted_at is null
      )
      select id, parent_id, name, is_dir, size, updated_at, locked_by, blob_id from tree ${recursiveWalkOrder(this.db)}`.execute(this.db);
    const hash = createHash('sha256');
    for (const r of result.rows) hash.update(`${r.id}|${r.parent_id ?? ''}|${r.name}|${r.is_dir}|${r.size}|${r.updated_at}|${lockerOf(r.locked_by)}|${r.blob_id ?? ''}\n`);
    return hash.digest('hex');
  }

  /** The tenant's own classification marks (migration 0030), besides the standard 绝密★/机密★/秘密★. */
  async secretMarks(tenantId: string): Promise<string[]> {
    const row = await this.db.selectFrom('tenant_settings').select('secret_marks').where('tenant_id', '=', tenantId).executeTakeFirst();
    return row?.secret_marks ? (JSON.parse(row.secret_marks) as string[]) : [];
  }
}
