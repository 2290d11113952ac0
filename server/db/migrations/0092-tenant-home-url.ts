import { type Kysely, type Migration } from 'kysely';

/**
 * The tenant's home page (spec §2: "/ redirects to the configured home page (default
 * /main/file/personal)"), set in 系统配置 and answered by `GET /api/menu/get/homeUrl` and the login
 * result. NULL: the default. Only pages every member's menu may hold are accepted
 * (common/api/tenant.ts HOME_PAGES).
 */
export const m0092_tenant_home_url: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tenants').addColumn('home_url', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('tenants').dropColumn('home_url').execute();
  },
};
