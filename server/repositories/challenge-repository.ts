import type { Db } from '../db/database';
import type { SecondUploadChallengesTable } from '../db/schema';

/** Second-upload challenges: stored server-side, single use, expiring. */
export class ChallengeRepository {
  constructor(private readonly db: Db) {}

  async insert(row: SecondUploadChallengesTable): Promise<void> {
    await this.db.insertInto('second_upload_challenges').values(row).execute();
  }

  /**
   * Takes the challenge out (single use): deletes it and returns it if it was this user's and still
   * valid. A second call with the same id finds nothing.
   */
  async consume(id: string, userId: string, tenantId: string, now: number): Promise<SecondUploadChallengesTable | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('second_upload_challenges')
        .selectAll()
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst();
      if (!row) return undefined;
      await tx.deleteFrom('second_upload_challenges').where('id', '=', id).execute();
      return row.expires_at > now ? row : undefined;
    });
  }

  async deleteExpired(now: number): Promise<number> {
    const res = await this.db.deleteFrom('second_upload_challenges').where('expires_at', '<=', now).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
