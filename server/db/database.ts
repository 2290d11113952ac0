import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Dialect } from 'kysely';
import type { ServerConfig } from '../config';
import { migrationProvider } from './migrations/index';
import { createPostgresDialect, isPostgresUrl } from './postgres';
import { refreshNameSortKeys } from './name-sort-keys';
import { refuseUnfinishedMove } from '../migrate-pg/unfinished-move';
import { engineOf } from './dialect';
import { withStatementCache } from './statement-cache';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/**
 * Picks the Kysely dialect from the config: `DB_URL=postgres://…` → PostgreSQL (db/postgres.ts),
 * unset → the SQLite file in the data directory. Repositories only use portable Kysely queries; where
 * the engines differ, db/dialect.ts says how.
 */
function createDialect(config: ServerConfig): Dialect {
  if (config.dbUrl) {
    if (!isPostgresUrl(config.dbUrl)) {
      throw new Error(`DB_URL must be a postgres:// URL (got ${new URL(config.dbUrl).protocol}); unset it for SQLite`);
    }
    return createPostgresDialect(config.dbUrl, { max: config.dbPoolSize, preparedStatements: config.dbPreparedStatements, idleInTransactionMs: config.lockLeaseMs });
  }
  const sqlite = new SQLite(path.join(config.dataDir, 'drive.sqlite'));
  // WAL lets readers run during a write; synchronous=FULL makes every committed transaction durable
  // before we answer 200 (field notes: durability).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new SqliteDialect({ database: withStatementCache(sqlite) });
}

/** Opens (and migrates) the database; `onMigrated` hears the names of the migrations this call ran. */
export async function openDatabase(config: ServerConfig, onMigrated?: (names: string[]) => void): Promise<Db> {
  const db = new Kysely<Database>({ dialect: createDialect(config) });
  if (engineOf(db) === 'postgres') {
    await refuseUnfinishedMove(db as unknown as Kysely<unknown>).catch(async (err: unknown) => {
      await db.destroy();
      throw err;
    });
  }
  // Unordered: work built in parallel takes its own number range (migrations/index.ts), so a database
  // may have run 0040 before 0011 lands. Each migration touches only its own tables and columns.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
  onMigrated?.((results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName));
  await refreshNameSortKeys(db as unknown as Kysely<unknown>);
  return db;
}

/**
 * The database of a data directory, read-only and without migrating (tools such as
 * `npm run audit:verify`, which may run beside a live server: WAL lets it read while the server
 * writes): the SQLite file, or the PostgreSQL database at `dbUrl` (DB_URL) in read-only transactions.
 */
export function openReadOnlyDatabase(dataDir: string, dbUrl?: string): Db {
  if (dbUrl) {
    if (!isPostgresUrl(dbUrl)) throw new Error(`DB_URL must be a postgres:// URL (got ${new URL(dbUrl).protocol})`);
    return new Kysely<Database>({ dialect: createPostgresDialect(dbUrl, { max: 2, readOnly: true }) });
  }
  const sqlite = new SQLite(path.join(dataDir, 'drive.sqlite'), { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** True when a write failed because of a UNIQUE constraint (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
