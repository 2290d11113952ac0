import { type Kysely, type Migration } from 'kysely';

/**
 * 手势密码 (issue 38): each user's pattern, only as a salted scrypt hash (the password hashing of
 * services/password-hash.ts), and each session's count of wrong patterns in a row (the 5th ends the
 * session). The pattern itself is stored nowhere, on the server or in the clients.
 */
export const m0090_gesture_patterns: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('gesture_patterns')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('sessions').addColumn('gesture_failures', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').dropColumn('gesture_failures').execute();
    await db.schema.dropTable('gesture_patterns').execute();
  },
};
