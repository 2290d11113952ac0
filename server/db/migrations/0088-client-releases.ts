import { type Kysely, type Migration } from 'kysely';

/**
 * 客户端版本 (issue 38): each tenant's desktop release per client type (3 internal build, 4 public
 * build), set in 系统配置 and answered by `GET /api/clientVersion/get?clientType=`. The installer is a
 * file the admin uploaded through the transfer engine (`file_id`, a live entry of the tenant); it is
 * read from that entry when a client downloads it, so deleting the file withdraws the installer.
 */
export const m0088_client_releases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('client_releases')
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('client_type', 'integer', (c) => c.notNull())
      .addColumn('version_name', 'text', (c) => c.notNull())
      .addColumn('version_desc', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('is_force', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('file_id', 'text')
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('client_releases_pk', ['tenant_id', 'client_type'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('client_releases').execute();
  },
};
