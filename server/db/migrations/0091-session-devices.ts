import { sql, type Kysely, type Migration } from 'kysely';

/**
 * 账号安全's signed-in devices (issue 44): each session keeps the browser's User-Agent and the last
 * address it was seen from, and a public id the device list names it by (the primary key is the
 * token's hash, which never leaves the server). Sessions from before get a public id derived from
 * their key; they show as 未知设备 until they sign in again.
 */
export const m0091_session_devices: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sessions').addColumn('public_id', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('address', 'text').execute();
    await sql`update sessions set public_id = substr(id, 1, 32)`.execute(db);
    await db.schema.createIndex('sessions_public_id').on('sessions').column('public_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('sessions_public_id').execute();
    await db.schema.alterTable('sessions').dropColumn('address').execute();
    await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
    await db.schema.alterTable('sessions').dropColumn('public_id').execute();
  },
};
