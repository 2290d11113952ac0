/**
 * Which database engine the server tests run on, and each test server's database.
 *
 * `DRIVE_TEST_DB=pg` runs the server tests on PostgreSQL: the vitest global setup
 * (tests/support/postgres-global-setup.ts) starts one throwaway cluster and migrates a template
 * database once; every test server's data directory then gets its own database, copied from the
 * template (CREATE DATABASE … TEMPLATE: ~50 ms), so a server restarted on the same data directory
 * finds its data again. Unset: SQLite, the file in the data directory, as in production's default.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Kysely, SqliteDialect } from 'kysely';
import pg from 'pg';
import { createPostgresDialect } from '../../server/db/postgres';

export type TestEngine = 'sqlite' | 'postgres';

/** Set by the global setup: postgres://postgres@127.0.0.1:PORT/ (no database). */
export const PG_BASE_ENV = 'DRIVE_TEST_PG_URL';
export const TEMPLATE_DATABASE = 'drive_template';

export const testEngine = (): TestEngine => (/^(pg|postgres(ql)?)$/i.test(process.env.DRIVE_TEST_DB ?? '') ? 'postgres' : 'sqlite');
export const onPostgres = (): boolean => testEngine() === 'postgres';

function pgBase(): string {
  const base = process.env[PG_BASE_ENV];
  if (!base) throw new Error(`DRIVE_TEST_DB=pg but ${PG_BASE_ENV} is unset: run through vitest's server project (its global setup starts PostgreSQL)`);
  return base.endsWith('/') ? base : `${base}/`;
}

/** The database name of a data directory (stable, so a restart on the same directory finds it). */
export const databaseNameOf = (dataDir: string): string => `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 24)}`;

export const postgresUrl = (database: string): string => pgBase() + database;

async function onServer<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl('postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * The DB_URL of a test server on `dataDir`: undefined on SQLite; on PostgreSQL the data directory's
 * database, created from the migrated template the first time.
 */
export async function testDbUrl(dataDir: string): Promise<string | undefined> {
  if (!onPostgres()) return undefined;
  const name = databaseNameOf(dataDir);
  await onServer(async (client) => {
    const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) return;
    try {
      await client.query(`create database ${name} template ${TEMPLATE_DATABASE}`);
    } catch (err) {
      // Two servers of one test started on the same directory at once: the other made it.
      if ((err as { code?: string }).code !== '42P04') throw err;
    }
  });
  return postgresUrl(name);
}

/**
 * An empty database (no migrations) for a test that runs the migrations itself; dropped by
 * dropTestDatabase. `ctype`: the database's LC_CTYPE instead of the cluster's (C.UTF-8), e.g. "C",
 * under which pg_trgm takes no CJK character for a word character.
 */
export async function emptyTestDbUrl(dataDir: string, options: { ctype?: 'C' } = {}): Promise<string> {
  const name = databaseNameOf(dataDir);
  await onServer(async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(options.ctype ? `create database ${name} template template0 lc_ctype '${options.ctype}'` : `create database ${name}`);
  });
  return postgresUrl(name);
}

/** Drops the data directory's database (PostgreSQL), after its server closed. */
export async function dropTestDatabase(dataDir: string): Promise<void> {
  if (!onPostgres()) return;
  await onServer((client) => client.query(`drop database if exists ${databaseNameOf(dataDir)} with (force)`));
}

/**
 * A Kysely handle on a data directory's database as it is (no migrations run), on the engine the
 * tests run on: for tests that replay one migration step or read with the repositories.
 */
export async function openTestKysely<DB = unknown>(dataDir: string): Promise<Kysely<DB>> {
  const url = await testDbUrl(dataDir);
  if (url) return new Kysely<DB>({ dialect: createPostgresDialect(url, { max: 2 }) });
  const { default: SQLite } = await import('better-sqlite3');
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'drive.sqlite')) }) });
}
