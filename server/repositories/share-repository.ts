import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { FilesTable, SharesTable } from '../db/schema';
import type { Audience } from './share-grants';

/** A recipient key of the audience: one walk of shares_inbox each. */
export interface RecipientKey {
  type: 'user' | 'dept' | 'group';
  id: string;
}

export function recipientKeysOf(audience: Audience): RecipientKey[] {
  return [
    { type: 'user', id: audience.userId },
    ...audience.deptIds.map((id) => ({ type: 'dept' as const, id })),
    ...audience.groupIds.map((id) => ({ type: 'group' as const, id })),
  ];
}

/** Position in the inbox order (newest share first). */
export interface InboxPosition {
  at: number;
  id: string;
}

export type InboxRow = SharesTable & { file: FilesTable };

export interface InboxWalkOptions {
  excludeOwner: string;
  sharerId: string | null;
  after: InboxPosition | null;
  limit: number;
  now: number;
}

/** Internal shares: writes, 我的分享, and the walks of 共享文件. */
export class ShareRepository {
  constructor(private readonly db: Db) {}

  find(tenantId: string, id: string): Promise<SharesTable | undefined> {
    return this.db.selectFrom('shares').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findMany(tenantId: string, ids: readonly string[]): Promise<SharesTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('shares').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', [...ids]).execute();
  }

  /**
   * Creates the shares, or updates the one in force for the same entry and recipient (its permission,
   * expiry and approval with its ceiling become the new ones), in one transaction. Answers the rows as they are now.
   */
  async upsert(rows: readonly SharesTable[]): Promise<SharesTable[]> {
    return this.db.transaction().execute(async (tx) => {
      const out: SharesTable[] = [];
      for (const row of rows) {
        const existing = await tx
          .selectFrom('shares')
          .selectAll()
          .where('file_id', '=', row.file_id)
          .where('recipient_type', '=', row.recipient_type)
          .where('recipient_id', '=', row.recipient_id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (existing) {
          const patch = { permission: row.permission, expires_at: row.expires_at, updated_at: row.updated_at, owner_id: row.owner_id, application_id: row.application_id, approved_terms: row.approved_terms };
          await tx.updateTable('shares').set(patch).where('id', '=', existing.id).execute();
          out.push({ ...existing, ...patch });
        } else {
          await tx.insertInto('shares').values(row).execute();
          out.push(row);
        }
      }
      return out;
    });
  }

  async update(tenantId: string, id: string, patch: Partial<Pick<SharesTable, 'permission' | 'expires_at' | 'updated_at'>>): Promise<void> {
    await this.db.updateTable('shares').set(patch).where('id', '=', id).where('tenant_id', '=', tenantId).execute();
  }

  /** Revokes the owner's shares in force among `ids`; answers those it revoked. */
  async revoke(tenantId: string, ownerId: string, ids: readonly string[], now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('shares')
      .set({ revoked_at: now, updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('owner_id', '=', ownerId)
      .where('id', 'in', [...ids])
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Shares in force on these entries (shares_file), whoever they reach: who hears of changes to them. */
  inForceOn(tenantId: string, fileIds: readonly string[], now: number): Promise<Array<Pick<SharesTable, 'file_id' | 'owner_id' | 'recipient_type' | 'recipient_id'>>> {
    if (fileIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('shares')
      .select(['file_id', 'owner_id', 'recipient_type', 'recipient_id'])
      .where('file_id', 'in', [...new Set(fileIds)])
      .where('revoked_at', 'is', null)
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .execute();
  }

  /** 我的分享: the owner's shares, newest first (shares_owner), keyset after `after`. */
  mine(tenantId: string, ownerId: string, after: InboxPosition | null, limit: number): Promise<SharesTable[]> {
    return this.mineQuery(tenantId, ownerId, after, limit).execute();
  }

  mineQuery(tenantId: string, ownerId: string, after: InboxPosition | null, limit: number) {
    let q = this.db.selectFrom('shares').selectAll().where('tenant_id', '=', tenantId).where('owner_id', '=', ownerId);
    if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id})`);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  /**
   * One walk of the inbox of one recipient key (shares_inbox, or shares_inbox_sharer for one sharer):
   * shares in force of live entries, newest first, after `after`. No sort step: the index is the order.
   */
  async inboxWalk(tenantId: string, key: RecipientKey, opts: InboxWalkOptions): Promise<InboxRow[]> {
    const shares = await this.inboxWalkQuery(tenantId, key, opts).execute();
    if (shares.length === 0) return [];
    const files = await this.db.selectFrom('files').selectAll().where('id', 'in', shares.map((s) => s.file_id)).execute();
    const byId = new Map(files.map((f) => [f.id, f]));
    return shares.filter((s) => byId.has(s.file_id)).map((s) => ({ ...s, file: byId.get(s.file_id)! }));
  }

  inboxWalkQuery(tenantId: string, key: RecipientKey, opts: InboxWalkOptions) {
    let q = this.db
      .selectFrom('shares as s')
      .innerJoin('files as f', 'f.id', 's.file_id')
      .innerJoin('users as o', 'o.id', 's.owner_id')
      .selectAll('s')
      .where('s.tenant_id', '=', tenantId)
      .where('s.recipient_type', '=', key.type)
      .where('s.recipient_id', '=', key.id)
      .where('s.revoked_at', 'is', null)
      .where('s.owner_id', '!=', opts.excludeOwner)
      .where('o.deleted_at', 'is', null)
      .where('f.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', opts.now)]));
    if (opts.sharerId) q = q.where('s.owner_id', '=', opts.sharerId);
    const after = opts.after;
    if (after) q = q.where(sql<boolean>`(s.created_at, s.id) < (${after.at}, ${after.id})`);
    return q.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(opts.limit);
  }

  /** Who shares how many live entries with the audience (the 共享文件 sharer chips), one grouped query. */
  async sharers(tenantId: string, keys: readonly RecipientKey[], excludeOwner: string, now: number): Promise<Array<{ owner_id: string; n: number }>> {
    const query = this.sharersQuery(tenantId, keys, excludeOwner, now);
    if (!query) return [];
    const rows = await query.execute();
    return rows.map((r) => ({ owner_id: r.owner_id, n: Number(r.n) }));
  }

  /**
   * One index range per recipient key (shares_inbox_sharer, which holds the owner), glued with UNION
   * ALL and grouped: the work follows the caller's inbox, not the tenant's shares (an OR over the
   * keys made SQLite walk every share of the tenant). The owner's account is checked once per group.
   */
  sharersQuery(tenantId: string, keys: readonly RecipientKey[], excludeOwner: string, now: number) {
    const perKey = keys.map((k) =>
      this.db
        .selectFrom('shares as s')
        .innerJoin('files as f', 'f.id', 's.file_id')
        .select(['s.owner_id', 's.file_id'])
        .where('s.tenant_id', '=', tenantId)
        .where('s.recipient_type', '=', k.type)
        .where('s.recipient_id', '=', k.id)
        .where('s.revoked_at', 'is', null)
        .where('s.owner_id', '!=', excludeOwner)
        .where('f.deleted_at', 'is', null)
        .where((eb) => eb.or([eb('s.expires_at', 'is', null), eb('s.expires_at', '>', now)])),
    );
    if (perKey.length === 0) return null;
    const reaching = perKey.slice(1).reduce((all, q) => all.unionAll(q), perKey[0]!);
    const counted = this.db
      .selectFrom(reaching.as('r'))
      .select(['r.owner_id', (eb) => eb.fn.count<number>('r.file_id').distinct().as('n')])
      .groupBy('r.owner_id');
    return this.db
      .selectFrom(counted.as('c'))
      .innerJoin('users as o', 'o.id', 'c.owner_id')
      .select(['c.owner_id', 'c.n'])
      .where('o.deleted_at', 'is', null);
  }
}
