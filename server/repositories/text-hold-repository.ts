import type { Db } from '../db/database';
import type { TextHoldsTable } from '../db/schema';

/** createTxt texts waiting for a keepOnCreateTxt decision. */
export class TextHoldRepository {
  constructor(private readonly db: Db) {}

  async insert(row: TextHoldsTable): Promise<void> {
    await this.db.insertInto('text_holds').values(row).execute();
  }

  find(userId: string, id: string, now: number): Promise<TextHoldsTable | undefined> {
    return this.db
      .selectFrom('text_holds')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Deletes a hold; false when it was already gone (decided twice at once: one wins). */
  async take(userId: string, id: string): Promise<boolean> {
    const res = await this.db.deleteFrom('text_holds').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  async deleteExpired(now: number): Promise<number> {
    const res = await this.db.deleteFrom('text_holds').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
