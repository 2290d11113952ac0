/**
 * The PostgreSQL side of `npm run migrate:pg`: what the target database holds, its progress record,
 * and the foreign keys and sequences around the copy.
 *
 * Progress lives in the target itself, in two tables the tool creates (not server migrations; the
 * server never reads them): `migrate_pg_run` (one row: the source, its fingerprint, the dropped
 * foreign keys, when the copy and the verification finished) and `migrate_pg_progress` (per table:
 * the last key copied and rows so far). A batch's rows and its progress row commit in one
 * transaction, so a run killed at any moment resumes exactly after the last batch that committed.
 *
 * Foreign keys are dropped for the copy and re-created (validated) after it, as pgloader does: the
 * schema has self-references (files.parent_id) and a cycle (users ↔ departments), so no table order
 * lets every batch satisfy them, and checking once at the end is cheaper than per row. Their
 * definitions are recorded (pg_get_constraintdef) in the same transaction that drops them. So are
 * the indexes that back no constraint (pg_indexes.indexdef): building one at the end costs a fraction
 * of keeping it up to date row by row (`files` has 14). Primary keys stay.
 */
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../db/database';
import { migrationProvider } from '../db/migrations/index';
import { createPostgresDialect } from '../db/postgres';
import type { ServerConfig } from '../config';
import { EXIT, MigrateStop, refuse } from './refusal';
import { quoteIdent, type TableShape } from './source';

/** Rows the server's migrations themselves write (not data: replaced by the source's). */
const MIGRATION_SEEDED = new Set(['name_sort_key_state']);
const KYSELY_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);
export const PROGRESS_TABLES = ['migrate_pg_run', 'migrate_pg_progress'] as const;
/** Any 64-bit number: the session advisory lock one migrate:pg run holds on its target. */
const RUN_LOCK = 0x6d69677261746550n;

export interface RunRecord {
  source: string;
  source_fingerprint: string;
  foreign_keys: string;
  indexes: string;
  started_at: number;
  copied_at: number | null;
  verified_at: number | null;
}

export interface TableProgress {
  table_name: string;
  last_key: string | null;
  rows_copied: number;
  done: number;
}

export interface SecondaryIndex {
  table: string;
  name: string;
  /** pg_indexes.indexdef: the whole CREATE INDEX statement. */
  definition: string;
}

export interface ForeignKey {
  table: string;
  name: string;
  definition: string;
}

export type TargetState = { kind: 'empty' } | { kind: 'ours'; run: RunRecord } | { kind: 'foreign'; tables: Array<{ name: string; rows: number }> };

// The tool's own tables are queried with raw SQL: they are not in the server's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export class PostgresTarget {
  private readonly columnTypes = new Map<string, Map<string, string>>();

  private constructor(
    readonly url: string,
    private db: AnyDb,
    private readonly lock: pg.Client,
  ) {}

  /** Connects, and takes the run lock: a second migrate:pg on the same target is refused. */
  static async connect(url: string): Promise<PostgresTarget> {
    const lock = new pg.Client({ connectionString: url, application_name: 'drive-migrate-pg' });
    try {
      await lock.connect();
    } catch (err) {
      throw refuse(`cannot connect to the target (${(err as Error).message}): the database must exist and accept this user`);
    }
    lock.on('error', () => {});
    const { rows } = await lock.query<{ ok: boolean }>('select pg_try_advisory_lock($1) as ok', [RUN_LOCK.toString()]);
    if (!rows[0]?.ok) {
      await lock.end();
      throw refuse('another migrate:pg is running on this target database: wait for it, or stop it (it resumes later)');
    }
    return new PostgresTarget(url, new Kysely({ dialect: createPostgresDialect(url, { max: 2 }) }), lock);
  }

  get kysely(): AnyDb {
    return this.db;
  }

  async close(): Promise<void> {
    await this.db.destroy();
    await this.lock.end().catch(() => undefined);
  }

  private async tableNames(): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(this.db);
    return rows.map((r) => r.name);
  }

  /** Empty (nothing, or only the migrated schema), a run of ours, or somebody's data. */
  async state(): Promise<TargetState> {
    const names = await this.tableNames();
    if (names.includes('migrate_pg_run')) {
      const { rows } = await sql<RunRecord>`select * from migrate_pg_run where id = 1`.execute(this.db);
      if (rows[0]) return { kind: 'ours', run: rows[0] };
    }
    const holding: Array<{ name: string; rows: number }> = [];
    for (const name of names) {
      if (KYSELY_TABLES.has(name) || MIGRATION_SEEDED.has(name) || (PROGRESS_TABLES as readonly string[]).includes(name)) continue;
      const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(this.db);
      if (rows[0]!.n > 0) holding.push({ name, rows: rows[0]!.n });
    }
    return holding.length > 0 ? { kind: 'foreign', tables: holding } : { kind: 'empty' };
  }

  /**
   * A fresh run: the server's own migrations (openDatabase, the code path of a server start), then in
   * one transaction the progress tables, the foreign keys recorded and dropped, and the rows the
   * migrations seeded removed (the source's take their place).
   */
  async begin(source: string, fingerprint: string, tables: TableShape[]): Promise<void> {
    await this.db.destroy();
    this.db = (await openDatabase({ dataDir: '', dbUrl: this.url, dbPoolSize: 2 } as ServerConfig)) as unknown as AnyDb;
    await this.checkShapes(tables);
    await this.db.transaction().execute(async (tx) => {
      await sql`create table if not exists migrate_pg_run (id integer primary key check (id = 1), source text not null,
        source_fingerprint text not null, foreign_keys text not null, indexes text not null, started_at bigint not null,
        copied_at bigint, verified_at bigint)`.execute(tx);
      await sql`create table if not exists migrate_pg_progress (table_name text primary key, position integer not null,
        last_key text, rows_copied bigint not null default 0, done integer not null default 0)`.execute(tx);
      const { rows: fks } = await sql<ForeignKey>`select cl.relname as "table", c.conname as name, pg_get_constraintdef(c.oid) as definition
        from pg_constraint c join pg_class cl on cl.oid = c.conrelid
        where c.contype = 'f' and c.connamespace = current_schema()::regnamespace order by cl.relname, c.conname`.execute(tx);
      for (const fk of fks) await sql`alter table ${sql.table(fk.table)} drop constraint ${sql.id(fk.name)}`.execute(tx);
      // Indexes that back no constraint (primary keys stay: they keep a resumed batch from landing twice).
      const { rows: indexes } = await sql<SecondaryIndex>`select tablename as "table", indexname as name, indexdef as definition
        from pg_indexes where schemaname = current_schema()
        and indexname not in (select conname from pg_constraint where connamespace = current_schema()::regnamespace)
        and tablename not in ('migrate_pg_run', 'migrate_pg_progress') order by tablename, indexname`.execute(tx);
      for (const index of indexes) await sql`drop index ${sql.id(index.name)}`.execute(tx);
      for (const name of MIGRATION_SEEDED) await sql`delete from ${sql.table(name)}`.execute(tx);
      await sql`insert into migrate_pg_run (id, source, source_fingerprint, foreign_keys, indexes, started_at)
        values (1, ${source}, ${fingerprint}, ${JSON.stringify(fks)}, ${JSON.stringify(indexes)}, ${Date.now()})`.execute(tx);
      for (const [position, t] of tables.entries()) {
        await sql`insert into migrate_pg_progress (table_name, position) values (${t.name}, ${position})`.execute(tx);
      }
    });
  }

  /** A resumed run: the schema must be the one the first run migrated (no server ran on it since). */
  async checkResumable(tables: TableShape[]): Promise<void> {
    const known = Object.keys(await migrationProvider.getMigrations());
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(this.db);
    const applied = new Set(rows.map((r) => r.name));
    const missing = known.filter((n) => !applied.has(n));
    if (missing.length > 0) throw refuse(`the target lacks migration(s) ${missing.join(', ')} of this version: resume with the version that started the run`);
    await this.checkShapes(tables);
  }

  /**
   * Every source table exists in the target with the same columns; notes each column's type for the inserts.
   * PostgreSQL's generated columns (blob_texts.body_lower) are written by PostgreSQL: not compared.
   */
  private async checkShapes(tables: TableShape[]): Promise<void> {
    const { rows } = await sql<{ table_name: string; column_name: string; udt_name: string }>`select table_name, column_name, udt_name
      from information_schema.columns where table_schema = current_schema() and is_generated = 'NEVER'`.execute(this.db);
    for (const t of tables) {
      const types = new Map(rows.filter((r) => r.table_name === t.name).map((r) => [r.column_name, r.udt_name]));
      const missing = t.columns.filter((c) => !types.has(c));
      const extra = [...types.keys()].filter((c) => !t.columns.includes(c));
      if (types.size === 0 || missing.length > 0 || extra.length > 0) {
        throw refuse(`table ${t.name} differs between source and target (missing ${missing.join(', ') || '—'}, extra ${extra.join(', ') || '—'})`);
      }
      this.columnTypes.set(t.name, types);
    }
  }

  async progress(): Promise<Map<string, TableProgress>> {
    const { rows } = await sql<TableProgress>`select table_name, last_key, rows_copied, done from migrate_pg_progress`.execute(this.db);
    return new Map(rows.map((r) => [r.table_name, r]));
  }

  /**
   * One batch (rows as arrays in `table.columns` order): its rows and the table's progress, committed
   * together. The rows go in as one array a column (`insert … select * from unnest($1::text[], …)`):
   * one parameter a column whatever the batch size, and PostgreSQL parses one short statement.
   */
  async writeBatch(table: TableShape, rows: unknown[][], lastKey: unknown[], done: boolean): Promise<void> {
    const types = this.columnTypes.get(table.name)!;
    const columns = sql.join(table.columns.map((c) => sql.ref(c)));
    const arrays = sql.join(table.columns.map((c, i) => sql`${rows.map((r) => r[i])}::${sql.raw(quoteIdent(types.get(c)!))}[]`));
    await this.db.transaction().execute(async (tx) => {
      if (rows.length > 0) await sql`insert into ${sql.table(table.name)} (${columns}) select * from unnest(${arrays})`.execute(tx);
      await sql`update migrate_pg_progress set last_key = ${JSON.stringify(lastKey)}, rows_copied = rows_copied + ${rows.length},
        done = ${done ? 1 : 0} where table_name = ${table.name}`.execute(tx);
    });
  }

  async markTableDone(table: TableShape): Promise<void> {
    await sql`update migrate_pg_progress set done = 1 where table_name = ${table.name}`.execute(this.db);
  }

  /** Re-creates the indexes the run dropped (a unique one checks its rows); returns how many. */
  async restoreIndexes(run: RunRecord): Promise<number> {
    const indexes = JSON.parse(run.indexes) as SecondaryIndex[];
    const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(this.db);
    const present = new Set(rows.map((r) => r.name));
    for (const index of indexes) {
      if (present.has(index.name)) continue;
      try {
        await sql.raw(index.definition).execute(this.db);
      } catch (err) {
        throw new MigrateStop(EXIT.mismatch, `index ${index.name} on ${index.table} cannot be rebuilt on the copied rows: ${(err as Error).message}`);
      }
    }
    return indexes.length;
  }

  /** Re-creates (and so validates) the foreign keys the run dropped; returns how many. */
  async restoreForeignKeys(run: RunRecord): Promise<number> {
    const fks = JSON.parse(run.foreign_keys) as ForeignKey[];
    const { rows } = await sql<{ name: string }>`select conname as name from pg_constraint
      where contype = 'f' and connamespace = current_schema()::regnamespace`.execute(this.db);
    const present = new Set(rows.map((r) => r.name));
    for (const fk of fks) {
      if (present.has(fk.name)) continue;
      try {
        await sql`alter table ${sql.table(fk.table)} add constraint ${sql.id(fk.name)} ${sql.raw(fk.definition)}`.execute(this.db);
      } catch (err) {
        throw new MigrateStop(EXIT.mismatch, `foreign key ${fk.name} on ${fk.table} (${fk.definition}) does not hold on the copied rows: ${(err as Error).message}`);
      }
    }
    return fks.length;
  }

  /** Moves every sequence (serial or identity column) past its column's largest value; answers what it set. */
  async fixSequences(): Promise<string[]> {
    const { rows } = await sql<{ table_name: string; column_name: string; seq: string | null }>`select table_name, column_name,
      pg_get_serial_sequence(quote_ident(table_name), column_name) as seq from information_schema.columns
      where table_schema = current_schema() and (column_default like 'nextval(%' or is_identity = 'YES')`.execute(this.db);
    const set: string[] = [];
    for (const r of rows) {
      if (!r.seq || (PROGRESS_TABLES as readonly string[]).includes(r.table_name)) continue;
      await sql`select setval(${r.seq}, coalesce((select max(${sql.ref(r.column_name)}) from ${sql.table(r.table_name)}), 0) + 1, false)`.execute(this.db);
      set.push(`${r.table_name}.${r.column_name}`);
    }
    return set;
  }

  async run(): Promise<RunRecord> {
    const { rows } = await sql<RunRecord>`select * from migrate_pg_run where id = 1`.execute(this.db);
    return rows[0]!;
  }

  async markRun(field: 'copied_at' | 'verified_at', at: number | null): Promise<void> {
    await sql`update migrate_pg_run set ${sql.ref(field)} = ${at} where id = 1`.execute(this.db);
  }

  async count(table: TableShape): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)}`.execute(this.db);
    return rows[0]!.n;
  }

  /**
   * Every row in the source's order (byte order: `collate "C"` on text key columns, as SQLite's
   * BINARY), through a cursor: one sort, then pages of `page` rows.
   */
  async *rows(table: TableShape, page = 10_000): AsyncGenerator<unknown[][]> {
    const { rows: types } = await sql<{ column_name: string; data_type: string }>`select column_name, data_type from information_schema.columns
      where table_schema = current_schema() and table_name = ${table.name}`.execute(this.db);
    const textual = new Set(types.filter((t) => t.data_type === 'text' || t.data_type.startsWith('character')).map((t) => t.column_name));
    const order = table.key.map((k) => `${quoteIdent(k)}${textual.has(k) ? ' collate "C"' : ''}`).join(', ');
    const select = `select ${table.columns.map(quoteIdent).join(', ')} from ${quoteIdent(table.name)} order by ${order}`;
    const client = new pg.Client({ connectionString: this.url, types: pgTypes });
    await client.connect();
    try {
      await client.query('begin read only');
      // The whole table is sorted once (byte order rarely matches an index's collation): in memory when it fits.
      await client.query(`set local work_mem = '128MB'`);
      await client.query(`declare migrate_rows no scroll cursor for ${select}`);
      for (;;) {
        const res = await client.query({ text: `fetch ${page} from migrate_rows`, rowMode: 'array' });
        if (res.rows.length === 0) break;
        yield res.rows as unknown[][];
      }
      await client.query('commit');
    } finally {
      await client.end();
    }
  }
}

/** Integers as exact decimal text (the checksum compares text forms; no rounding on the way). */
const pgTypes = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 || oid === 23 || oid === 21 ? (v: string) => BigInt(v) : pg.types.getTypeParser(oid, format)) } as pg.CustomTypesConfig;
