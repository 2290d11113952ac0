import { type Kysely, type Migration } from 'kysely';

/** Desktop sync (issue 17): the tenant's own classification marks (besides the standard 绝密★/机密★/秘密★); null = none. */
export const m0030_sync: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('tenant_settings').addColumn('secret_marks', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('tenant_settings').dropColumn('secret_marks').execute();
  },
};
