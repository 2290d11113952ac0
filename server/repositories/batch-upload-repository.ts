import type { Db } from '../db/database';
import type { BlobsTable } from '../db/schema';
import { commitInTx, Rollback, type CommitInput, type CommitOutcome } from './upload-commit-tx';

/** One savepoint name, reused (released or rolled back before the next): one statement shape each. */
const ITEM_SAVEPOINT = 'batch_item';

/** The small-file batch's writes (services/batch-upload-service.ts). */
export class BatchUploadRepository {
  constructor(private readonly db: Db) {}

  /** The tenant's blobs holding any of these contents, keyed by `${fingerprint}/${size}`. */
  async tenantBlobs(tenantId: string, fingerprints: string[]): Promise<Map<string, BlobsTable>> {
    const found = new Map<string, BlobsTable>();
    if (fingerprints.length === 0) return found;
    const rows = await this.db.selectFrom('blobs').selectAll().where('tenant_id', '=', tenantId).where('fingerprint', 'in', fingerprints).execute();
    for (const row of rows) found.set(`${row.fingerprint}/${Number(row.size)}`, row);
    return found;
  }

  /**
   * Records that these keys are about to be written: recovery removes the file of an intent without
   * a blob row. Forgotten once every unused key's file is removed.
   */
  async recordIntents(keys: string[], now: number): Promise<void> {
    if (keys.length === 0) return;
    await this.db.insertInto('blob_intents').values(keys.map((storage_key) => ({ storage_key, created_at: now }))).execute();
  }

  async forgetIntents(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.db.deleteFrom('blob_intents').where('storage_key', 'in', keys).execute();
  }

  /**
   * Commits every input in one transaction, each behind its own savepoint: a refused one (name
   * clash, quota, lock, a finished key) is rolled back alone and answered with its reason. The
   * `intents` (recordIntents) of new contents a committed item took are forgotten in the same
   * transaction: their blob row holds them from then on (no commit of their own for the common case);
   * those no item took stay until their files are removed.
   */
  async commitBatch(inputs: readonly CommitInput[], intents: readonly string[] = []): Promise<CommitOutcome[]> {
    const trx = await this.db.startTransaction().execute();
    try {
      const outcomes: CommitOutcome[] = [];
      for (const input of inputs) {
        const item = await trx.savepoint(ITEM_SAVEPOINT).execute();
        try {
          outcomes.push(await commitInTx(item, input));
          await item.releaseSavepoint(ITEM_SAVEPOINT).execute();
        } catch (err) {
          await item.rollbackToSavepoint(ITEM_SAVEPOINT).execute();
          await item.releaseSavepoint(ITEM_SAVEPOINT).execute();
          if (!(err instanceof Rollback)) throw err;
          outcomes.push({ ok: false, reason: err.reason });
        }
      }
      const pending = new Set(intents);
      const taken = [...new Set(outcomes.flatMap((o) => (o.ok && pending.has(o.blobId) ? [o.blobId] : [])))];
      if (taken.length > 0) await trx.deleteFrom('blob_intents').where('storage_key', 'in', taken).execute();
      await trx.commit().execute();
      return outcomes;
    } catch (err) {
      await trx.rollback().execute();
      throw err;
    }
  }
}
