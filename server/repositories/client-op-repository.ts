import type { Db } from '../db/database';
import { isUniqueViolation } from '../db/database';
import type { ClientOpsTable } from '../db/schema';

/** Client operation ids and their answers (see http/client-ops.ts). */
export class ClientOpRepository {
  constructor(private readonly db: Db) {}

  /**
   * Claims the id for a first run: true when this request is the first with it (or the earlier
   * claim was abandoned — still running after `staleBefore`, i.e. the server died mid-request).
   */
  async claim(userId: string, opId: string, requestHash: string, now: number, staleBefore: number): Promise<boolean> {
    try {
      await this.db.insertInto('client_ops').values({ user_id: userId, op_id: opId, request_hash: requestHash, status: null, body: null, created_at: now }).execute();
      return true;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const retaken = await this.db
      .updateTable('client_ops')
      .set({ created_at: now })
      .where('user_id', '=', userId)
      .where('op_id', '=', opId)
      .where('request_hash', '=', requestHash)
      .where('status', 'is', null)
      .where('created_at', '<', staleBefore)
      .executeTakeFirst();
    return Number(retaken.numUpdatedRows) === 1;
  }

  find(userId: string, opId: string): Promise<ClientOpsTable | undefined> {
    return this.db.selectFrom('client_ops').selectAll().where('user_id', '=', userId).where('op_id', '=', opId).executeTakeFirst();
  }

  async finish(userId: string, opId: string, status: number, body: string): Promise<void> {
    await this.db.updateTable('client_ops').set({ status, body }).where('user_id', '=', userId).where('op_id', '=', opId).execute();
  }

  /** Forgets a claim whose request failed on the server's side (5xx): a retry must run again. */
  async release(userId: string, opId: string): Promise<void> {
    await this.db.deleteFrom('client_ops').where('user_id', '=', userId).where('op_id', '=', opId).execute();
  }

  async deleteOlderThan(cutoff: number): Promise<number> {
    const res = await this.db.deleteFrom('client_ops').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
