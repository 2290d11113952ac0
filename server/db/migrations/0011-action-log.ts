import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The action log (操作日志): append-only rows, one hash chain per tenant (services/action-log/chain.ts).
 *
 * - `action_log` rows are keyed (tenant_id, seq): seq counts 1, 2, 3… within a tenant without gaps,
 *   so a deleted row shows as a missing seq; `prev_hash` is the previous row's `hash`.
 * - `action_log_heads` holds each chain's tail (last seq and hash): a writer bumps `seq` with an UPDATE
 *   first, which takes the row lock in PostgreSQL and the write lock in SQLite before anything of the
 *   chain is read, so two writers can never both extend the same tail. It also records where pruning
 *   stopped (`anchor_seq`, `anchor_hash`: the last pruned row), so a pruned chain still verifies.
 *
 * Lists are ordered by (at, seq) descending; every filter the page offers has an index ending in
 * (at, seq), so a filtered first page is one index range walk that stops after a page.
 */
export const m0011_action_log: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('action_log')
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_account', 'text', (c) => c.notNull())
      .addColumn('actor_name', 'text', (c) => c.notNull())
      .addColumn('actor_role', 'text', (c) => c.notNull())
      .addColumn('dept_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('targets', 'text', (c) => c.notNull())
      .addColumn('names_key', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('ok', 'refused')`))
      .addColumn('error_code', 'text')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('client_type', 'integer')
      .addColumn('network_env', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('user_agent', 'text', (c) => c.notNull())
      .addColumn('prev_hash', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('action_log_pk', ['tenant_id', 'seq'])
      .execute();
    await db.schema.createIndex('action_log_time').on('action_log').columns(['tenant_id', 'at', 'seq']).execute();
    await db.schema.createIndex('action_log_actor').on('action_log').columns(['tenant_id', 'actor_id', 'at', 'seq']).execute();
    await db.schema.createIndex('action_log_action').on('action_log').columns(['tenant_id', 'action', 'at', 'seq']).execute();
    await db.schema.createIndex('action_log_dept').on('action_log').columns(['tenant_id', 'dept_id', 'at', 'seq']).execute();
    // Refusals are rare: a partial index finds them without walking the successes.
    await sql`create index action_log_refused on action_log (tenant_id, at, seq) where outcome = 'refused'`.execute(db);

    await db.schema
      .createTable('action_log_heads')
      .addColumn('tenant_id', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('anchor_seq', 'bigint', (c) => c.notNull())
      .addColumn('anchor_hash', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('action_log_heads').ifExists().execute();
    await db.schema.dropTable('action_log').ifExists().execute();
  },
};
