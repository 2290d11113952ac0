import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { LinkFailuresTable, ShareLinksTable, ShareLinkTicketsTable } from '../db/schema';

/** Thrown inside reserveBytes' transaction to undo its credit when the reservation does not fit. */
class NotReserved extends Error {}

/** Share links, their download tickets, and the wrong-code counters. */
export class LinkRepository {
  constructor(private readonly db: Db) {}

  async insert(row: ShareLinksTable): Promise<void> {
    await this.db.insertInto('share_links').values(row).execute();
  }

  find(tenantId: string, id: string): Promise<ShareLinksTable | undefined> {
    return this.db.selectFrom('share_links').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findById(id: string): Promise<ShareLinksTable | undefined> {
    return this.db.selectFrom('share_links').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findMany(tenantId: string, ids: readonly string[]): Promise<ShareLinksTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('share_links').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', [...ids]).execute();
  }

  findByTokenHash(hash: string): Promise<ShareLinksTable | undefined> {
    return this.db.selectFrom('share_links').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  async update(tenantId: string, id: string, patch: Partial<ShareLinksTable>): Promise<void> {
    await this.db.updateTable('share_links').set(patch).where('id', '=', id).where('tenant_id', '=', tenantId).execute();
  }

  async revoke(tenantId: string, ownerId: string, ids: readonly string[], now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .updateTable('share_links')
      .set({ revoked_at: now, updated_at: now })
      .where('tenant_id', '=', tenantId)
      .where('owner_id', '=', ownerId)
      .where('id', 'in', [...ids])
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** 我的分享 (links): newest first (share_links_owner). */
  mine(tenantId: string, ownerId: string, after: { at: number; id: string } | null, limit: number): Promise<ShareLinksTable[]> {
    return this.mineQuery(tenantId, ownerId, after, limit).execute();
  }

  mineQuery(tenantId: string, ownerId: string, after: { at: number; id: string } | null, limit: number) {
    let q = this.db.selectFrom('share_links').selectAll().where('tenant_id', '=', tenantId).where('owner_id', '=', ownerId);
    if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id})`);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  async countView(id: string): Promise<void> {
    await this.db.updateTable('share_links').set((eb) => ({ view_count: eb('view_count', '+', 1) })).where('id', '=', id).execute();
  }

  /**
   * Counts one download if the link is in force and under its limit, in one statement (two visitors
   * at the limit cannot both pass). Answers the count after it, or null when refused.
   */
  async claimDownload(id: string, now: number): Promise<number | null> {
    const row = await this.db
      .updateTable('share_links')
      .set((eb) => ({ download_count: eb('download_count', '+', 1) }))
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .where((eb) => eb.or([eb('download_limit', 'is', null), eb('download_count', '<', eb.ref('download_limit'))]))
      .returning('download_count')
      .executeTakeFirst();
    return row ? Number(row.download_count) : null;
  }

  /** Gives back a download claimed for a use that then failed (a save refused after the claim). */
  async releaseDownload(id: string): Promise<void> {
    await this.db
      .updateTable('share_links')
      .set((eb) => ({ download_count: eb('download_count', '-', 1) }))
      .where('id', '=', id)
      .where('download_count', '>', 0)
      .execute();
  }

  async insertTicket(row: ShareLinkTicketsTable): Promise<void> {
    await this.db.insertInto('share_link_tickets').values(row).execute();
  }

  findTicket(hash: string): Promise<ShareLinkTicketsTable | undefined> {
    return this.db.selectFrom('share_link_tickets').selectAll().where('id_hash', '=', hash).executeTakeFirst();
  }

  /** Marks a ticket used by its one whole response (a ZIP's); false when it was used already. */
  async useTicket(hash: string, now: number): Promise<boolean> {
    const res = await this.db.updateTable('share_link_tickets').set({ used_at: now }).where('id_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows ?? 0) === 1;
  }

  /**
   * Takes `length` bytes of a ticket's one copy of `size` bytes for a response about to start at
   * `start`, in one transaction. First a resume's credit: when `start` lies inside the span the last
   * broken response handed to the network (or at its end), the bytes from `start` to the span's end
   * are given back, within `allowance` re-sent bytes over the ticket's life, and the span is settled.
   * Then the reservation, which holds only if it fits in what is left: two requests at once cannot
   * both take the same bytes. False, and nothing changed (the credit undone too), when it does not fit.
   */
  async reserveBytes(hash: string, r: { start: number; length: number; size: number; allowance: number; now: number }): Promise<boolean> {
    return this.db
      .transaction()
      .execute(async (tx) => {
        // A request from inside the span (or from its end: nothing was lost) settles it, credited or not.
        await tx
          .updateTable('share_link_tickets')
          .set((eb) => {
            const behind = eb('cut_end', '-', r.start);
            const room = eb(eb.val(r.allowance), '-', eb.ref('credited'));
            const credit = eb.case().when(room, '<=', 0).then(eb.val(0)).when(behind, '<=', room).then(behind).else(room).end();
            return { served: eb('served', '-', credit), credited: eb('credited', '+', credit), cut_start: null, cut_end: null };
          })
          .where('id_hash', '=', hash)
          .where('cut_start', '<=', r.start)
          .where('cut_end', '>=', r.start)
          .execute();
        const taken = await tx
          .updateTable('share_link_tickets')
          .set((eb) => ({ served: eb('served', '+', r.length), used_at: eb.fn.coalesce('used_at', eb.val(r.now)) }))
          .where('id_hash', '=', hash)
          .where((eb) => eb(eb('served', '+', r.length), '<=', r.size))
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows ?? 0) !== 1) throw new NotReserved();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof NotReserved) return false;
        throw err;
      });
  }

  /**
   * A response ended having sent less than it reserved: the unsent bytes go back to the ticket; a
   * broken one also leaves the span it handed to the network, which a resume from inside it may
   * have again (reserveBytes).
   */
  async returnBytes(hash: string, unsent: number, cut: { start: number; end: number } | null): Promise<void> {
    await this.db
      .updateTable('share_link_tickets')
      .set((eb) => ({ served: eb('served', '-', unsent), ...(cut ? { cut_start: cut.start, cut_end: cut.end } : {}) }))
      .where('id_hash', '=', hash)
      .execute();
  }

  async deleteExpiredTickets(now: number): Promise<number> {
    const res = await this.db.deleteFrom('share_link_tickets').where('expires_at', '<', now).executeTakeFirst();
    return Number(res.numDeletedRows ?? 0);
  }

  failures(keys: readonly string[]): Promise<LinkFailuresTable[]> {
    return this.db.selectFrom('link_failures').selectAll().where('key', 'in', [...keys]).execute();
  }

  /**
   * One more failure of `key` (a count older than `windowStart` starts again); answers the row after it.
   * One statement, so failures counted at once (by several server processes) are never lost.
   */
  async recordFailure(key: string, now: number, windowStart: number): Promise<LinkFailuresTable> {
    return this.db
      .insertInto('link_failures')
      .values({ key, failures: 1, first_failure_at: now, last_failure_at: now, locked_until: null })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb.case().when('link_failures.last_failure_at', '<', windowStart).then(1).else(eb('link_failures.failures', '+', 1)).end(),
          first_failure_at: eb.case().when('link_failures.last_failure_at', '<', windowStart).then(now).else(eb.ref('link_failures.first_failure_at')).end(),
          last_failure_at: now,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async lock(key: string, until: number): Promise<void> {
    await this.db.updateTable('link_failures').set({ locked_until: until }).where('key', '=', key).execute();
  }

  async clearFailures(key: string): Promise<void> {
    await this.db.deleteFrom('link_failures').where('key', '=', key).execute();
  }

  /** Counters with no failure since `windowStart` and no lock left at `now`. */
  async deleteStaleFailures(windowStart: number, now: number): Promise<number> {
    const res = await this.db
      .deleteFrom('link_failures')
      .where('last_failure_at', '<', windowStart)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
      .executeTakeFirst();
    return Number(res.numDeletedRows ?? 0);
  }
}
