import type { Db } from '../db/database';

export class CaptchaRepository {
  constructor(private readonly db: Db) {}

  async insert(id: string, answerHash: string, expiresAt: number): Promise<void> {
    await this.db.insertInto('captchas').values({ id, answer_hash: answerHash, expires_at: expiresAt, used: 0 }).execute();
  }

  /**
   * Marks the captcha used and returns its answer hash, in one statement, so two requests racing
   * with the same captcha cannot both get it. Returns undefined when unknown, expired or used.
   */
  async consume(id: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .updateTable('captchas')
      .set({ used: 1 })
      .where('id', '=', id)
      .where('used', '=', 0)
      .where('expires_at', '>', now)
      .returning('answer_hash')
      .executeTakeFirst();
    return row?.answer_hash;
  }

  /** Makes a consumed captcha usable once more (after /spacex/captcha/validate found the answer right). */
  async rearm(id: string, now: number): Promise<void> {
    await this.db.updateTable('captchas').set({ used: 0 }).where('id', '=', id).where('expires_at', '>', now).execute();
  }

  async deleteExpired(now: number): Promise<number> {
    const r = await this.db
      .deleteFrom('captchas')
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used', '=', 1)]))
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
