import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Tenant profile and settings (issue 14, spec §7 tenant, dictionary and admin-switch calls):
 * - tenants: alias (unique, case-insensitive through alias_key), the logo's picture type (null = the
 *   generated SVG), the login background (a blob and its type), updated_at (busts cached pictures);
 * - users.platform_admin: who sees every tenant (common/api/tenant.ts);
 * - tenant_switches: the admin switches, one row per switch set (absent = the default);
 * - dict_items: a tenant's changes to the default dictionaries (absent = the default entry).
 */
export const m0012_tenant_profile: Migration = {
  async up(db: Kysely<unknown>) {
    for (const col of ['alias', 'alias_key', 'logo_type', 'background_key', 'background_type']) {
      await db.schema.alterTable('tenants').addColumn(col, 'text').execute();
    }
    await db.schema.alterTable('tenants').addColumn('updated_at', 'bigint').execute();
    await sql`create unique index tenants_alias on tenants (alias_key) where alias_key is not null`.execute(db);
    await db.schema.alterTable('users').addColumn('platform_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    await db.schema
      .createTable('tenant_switches')
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('tenant_switches_pk', ['tenant_id', 'key'])
      .execute();

    await db.schema
      .createTable('dict_items')
      .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
      .addColumn('group_code', 'text', (c) => c.notNull())
      .addColumn('item_code', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('sort', 'integer', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('dict_items_pk', ['tenant_id', 'group_code', 'item_code'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('dict_items').ifExists().execute();
    await db.schema.dropTable('tenant_switches').ifExists().execute();
  },
};
