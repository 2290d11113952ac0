import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Accounts (issue 4): lock state, outer login and the user agreement on users; per-key login failure
 * counters (throttling and lock-out); hashed SMS codes; sessions remember the network they came from
 * and why the server ended them (an ended session answers 400sec-core-301 until it expires).
 */
export const m0004_accounts: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('users').addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // 'admin' | 'failures': decides whether a wrong password may learn that the account is locked.
    await db.schema.alterTable('users').addColumn('locked_reason', 'text').execute();
    await db.schema.alterTable('users').addColumn('outer_login', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('users').addColumn('agreement_read_at', 'bigint').execute();
    // Accounts that existed before could log in from anywhere; keep that. New accounts start without.
    await sql`update users set outer_login = 1`.execute(db);
    await db.schema.createIndex('users_phone').on('users').column('phone').execute();

    await db.schema.alterTable('sessions').addColumn('network_env', 'text', (c) => c.notNull().defaultTo('internal')).execute();
    await db.schema.alterTable('sessions').addColumn('ended_reason', 'text').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('first_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
      .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable('sms_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      // The user a bindPhone code was requested by; null for login codes.
      .addColumn('user_id', 'text')
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sms_codes_phone').on('sms_codes').columns(['phone', 'created_at']).execute();
    await db.schema.createIndex('sms_codes_address').on('sms_codes').columns(['address', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sms_codes').ifExists().execute();
    await db.schema.dropTable('login_failures').ifExists().execute();
  },
};
