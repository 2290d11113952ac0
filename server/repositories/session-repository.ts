import type { Db } from '../db/database';
import type { SessionsTable, UsersTable } from '../db/schema';

export type SessionWithUser = SessionsTable & { user: UsersTable };

/** How long extensions due at about the same time wait to be written together (see `extend`). */
const EXTEND_BATCH_MS = 5;

interface Extension {
  now: number;
  expiresAt: number;
  address: string | undefined;
}

export class SessionRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SessionsTable): Promise<void> {
    await this.db.insertInto('sessions').values(row).execute();
  }

  /** The unexpired session with this hashed id, joined with its user: one query per request. */
  async findValid(idHash: string, now: number): Promise<SessionWithUser | undefined> {
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 's.user_id').onRef('u.tenant_id', '=', 's.tenant_id'))
      .selectAll('u')
      .select([
        's.id as s_id',
        's.user_id as s_user_id',
        's.tenant_id as s_tenant_id',
        's.created_at as s_created_at',
        's.expires_at as s_expires_at',
        's.last_seen_at as s_last_seen_at',
        's.network_env as s_network_env',
        's.ended_reason as s_ended_reason',
        's.public_id as s_public_id',
        's.gesture_locked as s_gesture_locked',
      ])
      .where('s.id', '=', idHash)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    const { s_id, s_user_id, s_tenant_id, s_created_at, s_expires_at, s_last_seen_at, s_network_env, s_ended_reason, s_public_id, s_gesture_locked, ...user } = row;
    return {
      id: s_id,
      user_id: s_user_id,
      tenant_id: s_tenant_id,
      created_at: s_created_at,
      expires_at: s_expires_at,
      last_seen_at: s_last_seen_at,
      network_env: s_network_env,
      ended_reason: s_ended_reason,
      public_id: s_public_id,
      gesture_locked: s_gesture_locked,
      user,
    };
  }

  /**
   * Moves the expiry forward; `address` (when known) becomes the one the device list shows.
   *
   * Batched: every session due for extension is extended once a minute, so a crowd of users who signed
   * in together comes due in the same second. One UPDATE each would be one committed (fsynced, and on
   * SQLite synchronous, event-loop-blocking) write transaction each: 200 of them stalled every other
   * request for seconds in the load bench. So the extensions asked for within EXTEND_BATCH_MS are
   * written together in ONE transaction, and each caller waits for it: a request is still answered
   * only after its extension is durable (nothing is lost on a crash), at ≤ EXTEND_BATCH_MS more latency.
   */
  extend(idHash: string, now: number, expiresAt: number, address?: string): Promise<void> {
    let batch = this.extensions;
    if (!batch) {
      const rows = new Map<string, Extension>();
      const done = new Promise<void>((resolve, reject) => {
        setTimeout(() => {
          this.extensions = null;
          this.writeExtensions(rows).then(resolve, reject);
        }, EXTEND_BATCH_MS);
      });
      batch = this.extensions = { rows, done };
    }
    const earlier = batch.rows.get(idHash);
    batch.rows.set(idHash, { now, expiresAt, address: address ?? earlier?.address });
    return batch.done;
  }

  private extensions: { rows: Map<string, Extension>; done: Promise<void> } | null = null;

  private async writeExtensions(rows: ReadonlyMap<string, Extension>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [id, { now, expiresAt, address }] of rows) {
        await trx
          .updateTable('sessions')
          .set(address ? { last_seen_at: now, expires_at: expiresAt, address } : { last_seen_at: now, expires_at: expiresAt })
          .where('id', '=', id)
          .execute();
      }
    });
  }

  /** The user's sessions still in use: not expired, not ended. */
  private activeOf(tenantId: string, userId: string, now: number) {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .where('ended_reason', 'is', null);
  }

  /** The user's sessions still in use (not expired, not ended), most recently active first. */
  async listActive(tenantId: string, userId: string, now: number): Promise<SessionsTable[]> {
    return this.activeOf(tenantId, userId, now)
      .orderBy('last_seen_at', 'desc')
      .orderBy('created_at', 'desc')
      .execute();
  }

  /**
   * Ends the user's active sessions named by public id (all but `keepId` when `publicIds` is null):
   * kept until they expire, so their device learns why on its next call. Returns the ended rows.
   */
  async endOwn(tenantId: string, userId: string, publicIds: readonly string[] | null, keepId: string, reason: string, now: number): Promise<SessionsTable[]> {
    let q = this.activeOf(tenantId, userId, now).where('id', '<>', keepId);
    if (publicIds) {
      if (publicIds.length === 0) return [];
      q = q.where('public_id', 'in', publicIds);
    }
    const rows = await q.execute();
    if (rows.length === 0) return [];
    await this.db
      .updateTable('sessions')
      .set({ ended_reason: reason })
      .where('id', 'in', rows.map((r) => r.id))
      .execute();
    return rows;
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', idHash).execute();
  }

  /**
   * Ends a user's sessions but keeps them until they expire, so their next call learns why
   * (400sec-core-301) instead of a bare 401. `networkEnv` limits it to sessions from that network.
   */
  async endForUser(userId: string, reason: string, networkEnv?: string): Promise<void> {
    let q = this.db.updateTable('sessions').set({ ended_reason: reason }).where('user_id', '=', userId);
    if (networkEnv) q = q.where('network_env', '=', networkEnv);
    await q.execute();
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpired(now: number): Promise<number> {
    const r = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
