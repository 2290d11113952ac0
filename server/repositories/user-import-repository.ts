import type { Db } from '../db/database';
import type { DepartmentsTable, UserImportBatchesTable, UsersTable } from '../db/schema';

type Tx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];

/** Rows per INSERT: 21 columns each stays far below SQLite's and PostgreSQL's parameter limits. */
const INSERT_ROWS = 400;
const LOOKUP_CHUNK = 500;

export interface Taken {
  accounts: Set<string>;
  phones: Set<string>;
}

/** Batch-import previews and the one-transaction import of their good rows. */
export class UserImportRepository {
  constructor(private readonly db: Db) {}

  async saveBatch(row: UserImportBatchesTable, now: number): Promise<void> {
    await this.db.deleteFrom('user_import_batches').where('expires_at', '<=', now).execute();
    await this.db.insertInto('user_import_batches').values(row).execute();
  }

  findBatch(tenantId: string, id: string, now: number): Promise<UserImportBatchesTable | undefined> {
    return this.db
      .selectFrom('user_import_batches')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  takenNow(tenantId: string, keys: string[], phones: string[]): Promise<Taken> {
    return this.taken(this.db, tenantId, keys, phones);
  }

  /** Which of these account keys (in the tenant) and phones (anywhere: SMS login) are taken by live accounts. */
  private async taken(conn: Db | Tx, tenantId: string, keys: string[], phones: string[]): Promise<Taken> {
    const accounts = new Set<string>();
    const takenPhones = new Set<string>();
    for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
      const rows = await conn
        .selectFrom('users')
        .select('username_key')
        .where('tenant_id', '=', tenantId)
        .where('deleted_at', 'is', null)
        .where('username_key', 'in', keys.slice(i, i + LOOKUP_CHUNK))
        .execute();
      for (const r of rows) if (r.username_key) accounts.add(r.username_key);
    }
    for (let i = 0; i < phones.length; i += LOOKUP_CHUNK) {
      const rows = await conn.selectFrom('users').select('phone').where('deleted_at', 'is', null).where('phone', 'in', phones.slice(i, i + LOOKUP_CHUNK)).execute();
      for (const r of rows) takenPhones.add(r.phone);
    }
    return { accounts, phones: takenPhones };
  }

  /**
   * In ONE transaction: `check` sees what is taken now and returns the rows still good, which are
   * inserted; then the batch is marked imported with its final rows. Any failure leaves nothing.
   */
  async importInTransaction(
    tenantId: string,
    batchId: string,
    check: (now: {
      taken: (keys: string[], phones: string[]) => Promise<Taken>;
      departments: () => Promise<DepartmentsTable[]>;
    }) => Promise<{ users: UsersTable[]; rowsJson: string }>,
  ): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const claimed = await tx
        .updateTable('user_import_batches')
        .set({ status: 'imported' })
        .where('id', '=', batchId)
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'preview')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new BatchAlreadyImported();
      const { users, rowsJson } = await check({
        taken: (keys, phones) => this.taken(tx, tenantId, keys, phones),
        departments: () => tx.selectFrom('departments').selectAll().where('tenant_id', '=', tenantId).execute(),
      });
      for (let i = 0; i < users.length; i += INSERT_ROWS) await tx.insertInto('users').values(users.slice(i, i + INSERT_ROWS)).execute();
      await tx.updateTable('user_import_batches').set({ rows: rowsJson }).where('id', '=', batchId).execute();
      return users.length;
    });
  }
}

export class BatchAlreadyImported extends Error {}
