import { sql, type SqlBool } from 'kysely';
import { isUniqueViolation, type Db } from '../db/database';
import type { FileMessagesTable } from '../db/schema';

export type FileMessageRow = FileMessagesTable;

/** A message to write; `batch` coalesces it with an earlier one of the same recipient and key. */
export interface NewFileMessage extends Omit<FileMessagesTable, 'read_at' | 'batch_key'> {
  batch?: {
    key: string;
    /** 'once': an existing message of that key stays as it is; 'merge': it is replaced by `merge(old)`, unread and new again. */
    mode: 'once' | 'merge';
    merge?: (old: FileMessagesTable) => Pick<FileMessagesTable, 'detail' | 'item_count' | 'actor_id' | 'actor_name'>;
  };
}

export interface MessageFilter {
  read?: boolean;
  types?: readonly string[];
  from?: number;
  to?: number;
  keyword?: string;
}

export interface MessageKey {
  at: number;
  id: string;
}

/** The counter less n, never below 0 (CASE: SQLite's two-argument max() is not PostgreSQL's). */
const minus = (n: number) => sql<number>`case when file_unread > ${n} then file_unread - ${n} else 0 end`;

const likePattern = (keyword: string): string => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * File messages and their unread counters. Every change that makes a message unread or read, or
 * removes an unread one, adjusts notice_counters in the same transaction: the count a badge shows is
 * one primary-key read and always equals the unread rows of the list.
 */
export class FileMessageRepository {
  constructor(private readonly db: Db) {}

  /**
   * Writes the messages (one transaction). Returns the rows that are new or were re-batched (what
   * the recipients should hear about now), in input order.
   */
  async insertMany(messages: readonly NewFileMessage[]): Promise<FileMessagesTable[]> {
    if (messages.length === 0) return [];
    return this.db.transaction().execute(async (tx) => {
      const written: FileMessagesTable[] = [];
      const unreadDelta = new Map<string, number>();
      const bump = (userId: string) => unreadDelta.set(userId, (unreadDelta.get(userId) ?? 0) + 1);
      const plain: FileMessagesTable[] = [];
      for (const m of messages) {
        const { batch, ...fields } = m;
        const row: FileMessagesTable = { ...fields, batch_key: batch?.key ?? null, read_at: null };
        if (!batch) {
          plain.push(row);
          written.push(row);
          bump(row.user_id);
          continue;
        }
        const existing = await tx.selectFrom('file_messages').selectAll().where('user_id', '=', row.user_id).where('batch_key', '=', batch.key).executeTakeFirst();
        if (existing && batch.mode === 'once') continue;
        if (existing) {
          const merged = batch.merge ? batch.merge(existing) : { detail: row.detail, item_count: row.item_count, actor_id: row.actor_id, actor_name: row.actor_name };
          await tx.updateTable('file_messages').set({ ...merged, created_at: row.created_at, read_at: null }).where('id', '=', existing.id).execute();
          if (existing.read_at !== null) bump(row.user_id);
          written.push({ ...existing, ...merged, created_at: row.created_at, read_at: null });
          continue;
        }
        try {
          await tx.insertInto('file_messages').values(row).execute();
        } catch (err) {
          // Another writer made the batch's message first (PostgreSQL; SQLite serialises writers).
          if (!isUniqueViolation(err)) throw err;
          continue;
        }
        written.push(row);
        bump(row.user_id);
      }
      // Multi-row inserts, in slices that stay below the engines' bound-parameter limits.
      const columns = 14;
      const slice = Math.floor(30_000 / columns);
      for (let i = 0; i < plain.length; i += slice) await tx.insertInto('file_messages').values(plain.slice(i, i + slice)).execute();
      for (const [userId, delta] of unreadDelta) {
        await tx
          .insertInto('notice_counters')
          .values({ user_id: userId, file_unread: delta, quota_warned: 0 })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ file_unread: sql`notice_counters.file_unread + ${delta}` }))
          .execute();
      }
      return written;
    });
  }

  /** One keyset page, newest first; `limit` rows at most. */
  page(userId: string, filter: MessageFilter, after: MessageKey | null, limit: number): Promise<FileMessagesTable[]> {
    return this.pageQuery(userId, filter, after, limit).execute();
  }

  /** The page's query (tests check its plan). */
  pageQuery(userId: string, filter: MessageFilter, after: MessageKey | null, limit: number) {
    let q = this.db.selectFrom('file_messages').selectAll().where('user_id', '=', userId);
    if (filter.read === false) q = q.where('read_at', 'is', null);
    if (filter.read === true) q = q.where('read_at', 'is not', null);
    if (filter.types && filter.types.length > 0) q = q.where('type', 'in', [...filter.types]);
    if (filter.from !== undefined) q = q.where('created_at', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('created_at', '<', filter.to);
    const keyword = filter.keyword?.trim();
    if (keyword) {
      const pattern = likePattern(keyword);
      q = q.where(sql<SqlBool>`(lower(file_name) like ${pattern} escape '\\' or lower(actor_name) like ${pattern} escape '\\')`);
    }
    if (after) q = q.where((eb) => eb.or([eb('created_at', '<', after.at), eb.and([eb('created_at', '=', after.at), eb('id', '<', after.id)])]));
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  /** The messages of these ids (those still there), for the process that delivers them to a connected reader. */
  async byIds(ids: readonly string[]): Promise<FileMessagesTable[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('file_messages').selectAll().where('id', 'in', [...ids]).execute();
  }

  /** These users' messages written (or re-batched) from `since` on, oldest first: a listener's catch-up after a gap. */
  async writtenSince(userIds: readonly string[], since: number, limit: number): Promise<FileMessagesTable[]> {
    if (userIds.length === 0) return [];
    return this.db
      .selectFrom('file_messages')
      .selectAll()
      .where('user_id', 'in', [...userIds])
      .where('created_at', '>=', since)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await this.db.selectFrom('notice_counters').select('file_unread').where('user_id', '=', userId).executeTakeFirst();
    return Math.max(0, Number(row?.file_unread ?? 0));
  }

  async unreadCounts(userIds: readonly string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('notice_counters').select(['user_id', 'file_unread']).where('user_id', 'in', [...userIds]).execute();
    return new Map(rows.map((r) => [r.user_id, Math.max(0, Number(r.file_unread))]));
  }

  /** Marks the caller's messages read; returns how many were unread. */
  async markRead(userId: string, ids: readonly string[], now: number): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.transaction().execute(async (tx) => {
      const r = await tx.updateTable('file_messages').set({ read_at: now }).where('user_id', '=', userId).where('id', 'in', [...ids]).where('read_at', 'is', null).executeTakeFirst();
      const n = Number(r.numUpdatedRows);
      if (n > 0) await tx.updateTable('notice_counters').set({ file_unread: minus(n) }).where('user_id', '=', userId).execute();
      return n;
    });
  }

  async markAllRead(userId: string, now: number): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx.updateTable('file_messages').set({ read_at: now }).where('user_id', '=', userId).where('read_at', 'is', null).executeTakeFirst();
      await tx.updateTable('notice_counters').set({ file_unread: 0 }).where('user_id', '=', userId).execute();
      return Number(r.numUpdatedRows);
    });
  }

  /** Deletes the caller's messages; returns how many went. */
  async delete(userId: string, ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.transaction().execute(async (tx) => {
      const unread = await tx
        .selectFrom('file_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('id', 'in', [...ids])
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow();
      const r = await tx.deleteFrom('file_messages').where('user_id', '=', userId).where('id', 'in', [...ids]).executeTakeFirst();
      const n = Number(unread.n);
      if (n > 0) await tx.updateTable('notice_counters').set({ file_unread: minus(n) }).where('user_id', '=', userId).execute();
      return Number(r.numDeletedRows);
    });
  }

  /**
   * Removes messages older than `cutoff`, at most `limit` (the sweeper calls it until it returns
   * less), adjusting the counters of those that were unread. Returns how many went.
   */
  async pruneBefore(cutoff: number, limit: number): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const rows = await tx.selectFrom('file_messages').select(['id']).where('created_at', '<', cutoff).orderBy('created_at').limit(limit).execute();
      if (rows.length === 0) return 0;
      // The counters follow what this transaction deleted: a prune of another process at the same
      // time (PostgreSQL) may have taken some of these rows first.
      const deleted: Array<{ user_id: string; read_at: number | null }> = [];
      for (let i = 0; i < rows.length; i += 500) {
        const ids = rows.slice(i, i + 500).map((r) => r.id);
        deleted.push(...(await tx.deleteFrom('file_messages').where('id', 'in', ids).returning(['user_id', 'read_at']).execute()));
      }
      const unread = new Map<string, number>();
      for (const r of deleted) if (r.read_at === null) unread.set(r.user_id, (unread.get(r.user_id) ?? 0) + 1);
      for (const [userId, n] of unread) {
        await tx.updateTable('notice_counters').set({ file_unread: minus(n) }).where('user_id', '=', userId).execute();
      }
      return deleted.length;
    });
  }

  /** Whether the quota warning stands for the user (sent, and not gone below the threshold since). */
  async quotaWarned(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('notice_counters').select('quota_warned').where('user_id', '=', userId).executeTakeFirst();
    return row?.quota_warned === 1;
  }

  async setQuotaWarned(userId: string, warned: boolean): Promise<void> {
    await this.db
      .insertInto('notice_counters')
      .values({ user_id: userId, file_unread: 0, quota_warned: warned ? 1 : 0 })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ quota_warned: warned ? 1 : 0 }))
      .execute();
  }
}
