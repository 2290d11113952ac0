import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { DavLocksTable } from '../db/schema';

/** A WebDAV lock row joined with what makes it valid now. */
export type DavLockRow = DavLocksTable;

/**
 * WebDAV locks (migration 0096). A row counts only while it has not lapsed AND its entry is live AND
 * the entry's files.locked_by still names the row's user: the product's lock is the truth, so the web
 * app's 解锁 (or an administrator's) ends a WebDAV lock without knowing about it.
 */
export class DavLockRepository {
  constructor(private readonly db: Db) {}

  private valid(now: number) {
    return this.db
      .selectFrom('dav_locks')
      .innerJoin('files', 'files.id', 'dav_locks.entry_id')
      .selectAll('dav_locks')
      .where('files.deleted_at', 'is', null)
      .whereRef('files.locked_by', '=', 'dav_locks.user_id')
      .where((eb) => eb.or([eb('dav_locks.expires_at', 'is', null), eb('dav_locks.expires_at', '>', now)]));
  }

  /** Valid locks on these entries (any depth). */
  async onEntries(tenantId: string, entryIds: readonly string[], now: number): Promise<DavLockRow[]> {
    if (entryIds.length === 0) return [];
    const rows = await this.valid(now).where('dav_locks.tenant_id', '=', tenantId).where('dav_locks.entry_id', 'in', [...entryIds]).execute();
    return rows.map(numeric);
  }

  /** Valid locks on the live members (at any level) of `rootId`, not on the root itself. */
  async belowEntry(tenantId: string, rootId: string, now: number): Promise<DavLockRow[]> {
    const result = await sql<DavLockRow>`
      with recursive tree(id) as (
        select id from files where parent_id = ${rootId} and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id from files f join tree on f.parent_id = tree.id where f.deleted_at is null
      )
      select dav_locks.* from tree
        join dav_locks on dav_locks.entry_id = tree.id
        join files on files.id = tree.id
        where files.locked_by = dav_locks.user_id and (dav_locks.expires_at is null or dav_locks.expires_at > ${now})`.execute(this.db);
    return result.rows.map(numeric);
  }

  async byToken(tenantId: string, token: string, now: number): Promise<DavLockRow | undefined> {
    const row = await this.valid(now).where('dav_locks.tenant_id', '=', tenantId).where('dav_locks.token', '=', token).executeTakeFirst();
    return row && numeric(row);
  }

  async insert(row: DavLockRow): Promise<void> {
    await this.db.insertInto('dav_locks').values(row).execute();
  }

  async refresh(token: string, timeoutS: number | null, expiresAt: number | null): Promise<void> {
    await this.db.updateTable('dav_locks').set({ timeout_s: timeoutS, expires_at: expiresAt }).where('token', '=', token).execute();
  }

  /** Deletes one lock; answers whether it existed. */
  async remove(token: string): Promise<boolean> {
    const r = await this.db.deleteFrom('dav_locks').where('token', '=', token).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * A lock that took the product lock is ending: another live lock of the same person on the entry
   * takes over the duty of giving it back. Answers false when there is none (the caller gives it back).
   */
  async passOnProductLock(entryId: string, userId: string, now: number): Promise<boolean> {
    const heir = await this.db
      .selectFrom('dav_locks')
      .select('token')
      .where('entry_id', '=', entryId)
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .orderBy('created_at')
      .executeTakeFirst();
    if (!heir) return false;
    await this.db.updateTable('dav_locks').set({ took_product_lock: 1 }).where('token', '=', heir.token).execute();
    return true;
  }

  /** Clears files.locked_by when it still names `userId` (a WebDAV lock's own, ending). */
  async releaseProductLock(tenantId: string, entryId: string, userId: string): Promise<void> {
    await this.db.updateTable('files').set({ locked_by: null }).where('tenant_id', '=', tenantId).where('id', '=', entryId).where('locked_by', '=', userId).execute();
  }

  /** Rows that lapsed by `now`, oldest first: of these entries, or (null) anywhere (the sweeper). */
  async lapsed(now: number, limit: number, tenantId: string | null, entryIds: readonly string[] | null): Promise<DavLockRow[]> {
    if (entryIds && entryIds.length === 0) return [];
    let q = this.db.selectFrom('dav_locks').selectAll().where('expires_at', 'is not', null).where('expires_at', '<=', now);
    if (tenantId) q = q.where('tenant_id', '=', tenantId);
    if (entryIds) q = q.where('entry_id', 'in', [...entryIds]);
    const rows = await q.orderBy('expires_at').limit(limit).execute();
    return rows.map(numeric);
  }
}

/** PostgreSQL answers bigint columns as strings. */
function numeric(row: DavLockRow): DavLockRow {
  return {
    ...row,
    deep: Number(row.deep),
    took_product_lock: Number(row.took_product_lock),
    timeout_s: row.timeout_s == null ? null : Number(row.timeout_s),
    expires_at: row.expires_at == null ? null : Number(row.expires_at),
    created_at: Number(row.created_at),
  };
}
