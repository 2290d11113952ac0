import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Notices (issue 16).
 *
 * File messages: one row per recipient and event (a batch of entries is one row with item_count).
 * The list is one index walk on (user_id, created_at, id) — newest first, keyset — optionally on the
 * partial index of unread rows or the per-type one. Unread counts are kept in notice_counters in the
 * same transaction as every insert, mark-read and delete, so reading a count is one primary-key
 * look-up whatever the number of messages. `batch_key` coalesces events (one message per link per
 * hour): unique per recipient while set.
 *
 * System notices: ONE row per notice plus its audience rules (whole tenant, departments — with
 * everything below them —, people), resolved when a reader asks; readers leave a marker when they
 * read one (system_notice_reads). Publishing to 20,000 people writes no row per person.
 * tenant_id '' holds the platform's notices (for every tenant).
 */
export const m0070_notices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('file_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'text')
      .addColumn('actor_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('file_id', 'text')
      .addColumn('file_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_dir', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(1))
      /** An application, link or share id the message is about. */
      .addColumn('ref_id', 'text')
      /** JSON FileMessageDetail. */
      .addColumn('detail', 'text')
      .addColumn('batch_key', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('read_at', 'bigint')
      .execute();
    await sql`create index file_messages_user_time on file_messages (user_id, created_at, id)`.execute(db);
    await sql`create index file_messages_user_unread on file_messages (user_id, created_at, id) where read_at is null`.execute(db);
    await sql`create index file_messages_user_type on file_messages (user_id, type, created_at, id)`.execute(db);
    await sql`create unique index file_messages_batch on file_messages (user_id, batch_key) where batch_key is not null`.execute(db);
    // The sweeper removes old messages by time.
    await sql`create index file_messages_created on file_messages (created_at)`.execute(db);

    await db.schema
      .createTable('notice_counters')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('file_unread', 'integer', (c) => c.notNull().defaultTo(0))
      /** The quota warning was sent and the user has not gone below the threshold since. */
      .addColumn('quota_warned', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('system_notices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('audience_all', 'integer', (c) => c.notNull())
      .addColumn('important', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('draft', 'published', 'withdrawn')`))
      /** When readers see it (state published and publish_at <= now); in the future = scheduled. */
      .addColumn('publish_at', 'bigint')
      .addColumn('withdrawn_at', 'bigint')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    // The readers' feed: published notices of a tenant by time (pinned ones first is a re-sort of a few rows).
    await sql`create index system_notices_feed on system_notices (tenant_id, state, publish_at, id)`.execute(db);
    await sql`create index system_notices_manage on system_notices (tenant_id, updated_at, id)`.execute(db);

    await db.schema
      .createTable('system_notice_targets')
      .addColumn('notice_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('dept', 'user')`))
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('system_notice_targets_pk', ['notice_id', 'kind', 'target_id'])
      .execute();
    await sql`create index system_notice_targets_target on system_notice_targets (target_id, kind, notice_id)`.execute(db);

    await db.schema
      .createTable('system_notice_reads')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('notice_id', 'text', (c) => c.notNull())
      .addColumn('read_at', 'bigint')
      /** The important notice was shown to the user at login (once). */
      .addColumn('popped_at', 'bigint')
      .addPrimaryKeyConstraint('system_notice_reads_pk', ['user_id', 'notice_id'])
      .execute();
    await sql`create index system_notice_reads_notice on system_notice_reads (notice_id)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['system_notice_reads', 'system_notice_targets', 'system_notices', 'notice_counters', 'file_messages']) {
      await db.schema.dropTable(table).ifExists().execute();
    }
  },
};
