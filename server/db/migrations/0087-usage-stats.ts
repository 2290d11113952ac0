import { sql, type Kysely, type Migration } from 'kysely';

/**
 * 工作台 and 统计报表 (issue 38): aggregates kept as actions are recorded, so a report never walks the
 * action log or the file tree.
 *
 * - `usage_daily`: per tenant, day (China Standard Time, common/api/reports.ts `statsDayOf`), the
 *   actor's department ('' when none), metric and one dimension (a file type, a client and network, an
 *   approver…): a count and a byte total. Rows are added to in the transaction that appends the
 *   actions to the log (repositories/usage-stats-repository.ts), so the figures and the log agree.
 *   The `storage` metric is a snapshot (the department's used bytes when last taken that day), not a sum.
 *   The key's order (tenant, metric, department, day, dim) makes every read one range per department:
 *   the whole tenant's figures are the ALL_DEPARTMENTS ('*') rows, never a walk of every department's.
 * - `users.active_day`: the last day the person did anything; 7 / 30-day active counts read it.
 * - `sessions_tenant`: a tenant's live sessions (the desktop client versions in use) without a walk
 *   of every tenant's.
 */
export const m0087_usage_stats: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('usage_daily')
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('metric', 'text', (c) => c.notNull())
      .addColumn('dept_id', 'text', (c) => c.notNull())
      .addColumn('dim', 'text', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('usage_daily_pk', ['tenant_id', 'metric', 'dept_id', 'day', 'dim'])
      .execute();
    await db.schema.alterTable('users').addColumn('active_day', 'integer').execute();
    await sql`create index users_active_day on users (tenant_id, active_day) where deleted_at is null`.execute(db);
    await db.schema.createIndex('sessions_tenant').on('sessions').columns(['tenant_id', 'expires_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('sessions_tenant').execute();
    await db.schema.dropIndex('users_active_day').execute();
    await db.schema.alterTable('users').dropColumn('active_day').execute();
    await db.schema.dropTable('usage_daily').execute();
  },
};
