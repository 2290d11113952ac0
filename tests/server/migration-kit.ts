import SQLite, { type Database } from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';
import { migrationProvider } from '../../server/db/migrations/index';

/**
 * Runs the server's migrations on the SQLite file `file`, in name order, up to and including `upTo`
 * (all when omitted). A migration test writes rows the way an older server did after `migrate(file,
 * 'older')`, then calls `migrate(file)` to run the one under test on them.
 */
export async function migrate(file: string, upTo?: string): Promise<void> {
  const all = await migrationProvider.getMigrations();
  const chosen: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(all).sort(([a], [b]) => a.localeCompare(b))) {
    if (upTo && name > upTo) break;
    chosen[name] = m;
  }
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  try {
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => chosen } }).migrateToLatest();
    if (error) throw error;
  } finally {
    await db.destroy();
  }
}

/**
 * Tenant `t` and its member `u`, written straight into a database migrated to an older version (the
 * columns they have at 0041 and at 0070, where the migration tests start), for the rows a test adds under them.
 */
export function insertTenantAndMember(raw: Database): void {
  raw.prepare("insert into tenants (id, name, brand_name, logo_key, created_at) values ('t', 'T', 'T', null, 1)").run();
  raw.prepare(
    `insert into users (id, tenant_id, username, nick_name, phone, avatar, role, password_hash, must_change_password, quota, used_size, created_at)
     values ('u', 't', 'u', 'u', '', '', 'member', 'x', 0, 1, 0, 1)`,
  ).run();
}
