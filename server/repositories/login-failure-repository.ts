import type { Db } from '../db/database';
import type { LoginFailuresTable } from '../db/schema';

/** Failure counters of the login throttle, keyed `acct:<name>` / `addr:<address>`. */
export class LoginFailureRepository {
  constructor(private readonly db: Db) {}

  find(keys: string[]): Promise<LoginFailuresTable[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('login_failures').selectAll().where('key', 'in', keys).execute();
  }

  /**
   * Counts one failure in one statement (no lost update between concurrent failures): a count whose
   * last failure is older than `windowStart` starts again at 1, unless the key is locked.
   */
  async recordFailure(key: string, now: number, windowStart: number): Promise<LoginFailuresTable> {
    const row = await this.db
      .insertInto('login_failures')
      .values({ key, failures: 1, first_failure_at: now, last_failure_at: now, locked: 0 })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when(eb.and([eb('login_failures.last_failure_at', '<', windowStart), eb('login_failures.locked', '=', 0)]))
            .then(1)
            .else(eb('login_failures.failures', '+', 1))
            .end(),
          first_failure_at: eb
            .case()
            .when(eb.and([eb('login_failures.last_failure_at', '<', windowStart), eb('login_failures.locked', '=', 0)]))
            .then(now)
            .else(eb.ref('login_failures.first_failure_at'))
            .end(),
          last_failure_at: now,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return row;
  }

  async lock(key: string): Promise<void> {
    await this.db.updateTable('login_failures').set({ locked: 1 }).where('key', '=', key).execute();
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }

  /** Unlocked counters idle since before `windowStart` mean nothing any more. */
  async deleteStale(windowStart: number): Promise<number> {
    const r = await this.db
      .deleteFrom('login_failures')
      .where('locked', '=', 0)
      .where('last_failure_at', '<', windowStart)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
