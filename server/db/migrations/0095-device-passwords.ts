import type { Kysely, Migration } from 'kysely';

/**
 * 设备密码 (issue 39): passwords a user creates for WebDAV clients (Explorer, Finder, rclone), which
 * cannot pass the web login's captcha. Each is ours, generated with 200 bits of entropy
 * (services/device-password-service.ts): `public_id` finds the row, `secret_hash` is SHA-256 of the
 * whole password. Revoked rows stay (revoked_at) so the list and the action log keep their names.
 */
export const m0095_device_passwords: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('device_passwords')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('public_id', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('last_used_address', 'text')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('device_passwords_user').on('device_passwords').columns(['tenant_id', 'user_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('device_passwords').execute();
  },
};
