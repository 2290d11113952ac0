import type { Db } from '../db/database';
import type { SmsCodesTable } from '../db/schema';

export class SmsCodeRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SmsCodesTable): Promise<void> {
    await this.db.insertInto('sms_codes').values(row).execute();
  }

  /** Codes sent to a phone, or requested from an address, since a time (the rate limits). */
  async countSince(column: 'phone' | 'address', value: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('sms_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', value)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A new code replaces the older ones of the same phone and purpose. */
  async retire(phone: string, purpose: string): Promise<void> {
    await this.db.updateTable('sms_codes').set({ used: 1 }).where('phone', '=', phone).where('purpose', '=', purpose).execute();
  }

  /** The live code of a phone and purpose (and requester, for bindPhone), newest first. */
  findLive(phone: string, purpose: string, userId: string | null, now: number, maxAttempts: number): Promise<SmsCodesTable | undefined> {
    let q = this.db
      .selectFrom('sms_codes')
      .selectAll()
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('used', '=', 0)
      .where('expires_at', '>', now)
      .where('attempts', '<', maxAttempts);
    q = userId === null ? q.where('user_id', 'is', null) : q.where('user_id', '=', userId);
    return q.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  }

  /** Counts a wrong try; the code dies with the last allowed one. */
  async recordWrongAttempt(id: string, maxAttempts: number): Promise<void> {
    await this.db
      .updateTable('sms_codes')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        used: eb.case().when('attempts', '>=', maxAttempts - 1).then(1).else(eb.ref('used')).end(),
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Uses the code up in one statement: of two racing requests only one gets true. */
  async consume(id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('sms_codes')
      .set({ used: 1 })
      .where('id', '=', id)
      .where('used', '=', 0)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Rows older than an hour no longer count for any limit. */
  async deleteOlderThan(time: number): Promise<number> {
    const r = await this.db.deleteFrom('sms_codes').where('created_at', '<', time).where('expires_at', '<=', time).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
