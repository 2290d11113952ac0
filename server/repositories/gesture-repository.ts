import { sql } from 'kysely';
import type { Db } from '../db/database';

/** Users' 手势密码 hashes and each session's count of wrong patterns (migration 0090) and lock (0094). */
export class GestureRepository {
  constructor(private readonly db: Db) {}

  async hashOf(tenantId: string, userId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('gesture_patterns').select('hash').where('user_id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
    return row?.hash;
  }

  async save(tenantId: string, userId: string, hash: string, now: number): Promise<void> {
    await this.db
      .insertInto('gesture_patterns')
      .values({ user_id: userId, tenant_id: tenantId, hash, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ tenant_id: tenantId, hash, updated_at: now }))
      .execute();
  }

  /** Whether there was one. */
  async remove(tenantId: string, userId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('gesture_patterns').where('user_id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * Counts one more try on the session BEFORE the pattern is checked, and answers the count: tries
   * sent at once cannot all be judged against the same old count (one UPDATE, atomic on both
   * databases).
   */
  async countTry(sessionId: string): Promise<number> {
    await this.db
      .updateTable('sessions')
      .set({ gesture_failures: sql`gesture_failures + 1` })
      .where('id', '=', sessionId)
      .execute();
    const row = await this.db.selectFrom('sessions').select('gesture_failures').where('id', '=', sessionId).executeTakeFirst();
    return Number(row?.gesture_failures ?? 0);
  }

  /** A right pattern (or a new one): no wrong tries counted, and the session's lock is lifted. */
  async resetTries(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ gesture_failures: 0, gesture_locked: 0 }).where('id', '=', sessionId).execute();
  }

  /** The client's lock screen is up: the guard refuses the session's other calls (migration 0094). */
  async lock(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ gesture_locked: 1 }).where('id', '=', sessionId).execute();
  }

  /** Ends the session (kept until it expires, so its next call answers 400sec-core-301). */
  async endSession(sessionId: string): Promise<void> {
    await this.db.updateTable('sessions').set({ ended_reason: 'gesture' }).where('id', '=', sessionId).execute();
  }
}
