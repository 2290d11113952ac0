/**
 * The SQLite side of `npm run migrate:pg`: DATA_DIR/drive.sqlite, locked against every other process
 * for the whole run and read through a connection that cannot write.
 *
 * Why a lock and not only `readonly`: a server started on the file mid-copy would write rows the
 * target never gets. SQLite's EXCLUSIVE locking mode keeps the lock from the first transaction to
 * close, so a server already running makes that first transaction fail at once (it holds the file
 * open in WAL mode), and a server started later fails its own start ("database is locked"). The
 * connection is `query_only`: it reads, and SQLite refuses any write through it. Killing this tool
 * (even with -9) releases the lock, as the kernel drops a dead process's file locks.
 */
import { existsSync, promises as fsp, realpathSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrationProvider } from '../db/migrations/index';
import { refuse } from './refusal';

/** Kysely's bookkeeping: the target gets its own from running the migrations. */
const NOT_COPIED = new Set(['kysely_migration', 'kysely_migration_lock']);

export interface TableShape {
  name: string;
  columns: string[];
  /** Primary-key columns in key order (every table of ours has one). */
  key: string[];
  /** Tables this one's foreign keys point at (itself excluded). */
  references: string[];
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** PIDs of other processes that hold `file` (or its -wal/-shm) open, as far as /proc lets us see. */
async function holdersOf(file: string): Promise<number[]> {
  const wanted = new Set([file, `${file}-wal`, `${file}-shm`]);
  const pids: number[] = [];
  const entries = await fsp.readdir('/proc').catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const fds = await fsp.readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      const target = await fsp.readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (wanted.has(target)) {
        pids.push(pid);
        break;
      }
    }
  }
  return pids;
}

const isBusy = (err: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown }).code ?? ''));

export class SqliteSource {
  readonly tables: TableShape[];
  private readonly statements = new Map<string, SQLite.Statement>();

  private constructor(
    readonly file: string,
    private readonly db: SQLite.Database,
  ) {
    this.tables = foreignKeyOrder(this.readShapes());
  }

  /** Opens and locks DATA_DIR/drive.sqlite; refuses when another process (a server) uses it. */
  static async open(dataDir: string): Promise<SqliteSource> {
    const file = path.join(dataDir, 'drive.sqlite');
    if (!existsSync(file)) throw refuse(`no SQLite database at ${file}: --data-dir must name the server's DATA_DIR`);
    const real = realpathSync(file);
    let db: SQLite.Database | undefined;
    try {
      db = new SQLite(real, { fileMustExist: true, timeout: 0 });
      db.pragma('locking_mode = EXCLUSIVE');
      // Takes the lock (kept until close); writes nothing.
      db.exec('begin exclusive; commit');
      db.pragma('query_only = 1');
      return new SqliteSource(real, db);
    } catch (err) {
      db?.close();
      if (!isBusy(err)) throw err;
      const pids = await holdersOf(real);
      throw refuse(
        `${real} is in use${pids.length > 0 ? ` by process ${pids.join(', ')}` : ' by another process'} (a running server?). ` +
          'Stop the server (and any other tool on this data directory), then run migrate:pg again.',
      );
    }
  }

  close(): void {
    this.db.close();
  }

  /** Refuses a database the current code would still migrate (or one a newer code migrated). */
  async checkSchemaIsCurrent(): Promise<void> {
    const known = Object.keys(await migrationProvider.getMigrations());
    const applied = (this.db.prepare('select name from kysely_migration').all() as Array<{ name: string }>).map((r) => r.name);
    const missing = known.filter((n) => !applied.includes(n));
    const unknown = applied.filter((n) => !known.includes(n));
    if (missing.length > 0) {
      throw refuse(
        `the SQLite database lacks ${missing.length} migration(s) of this version (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? ', …' : ''}): ` +
          'start this version of the server on it once (it migrates at start), stop it, then run migrate:pg.',
      );
    }
    if (unknown.length > 0) {
      throw refuse(`the SQLite database was migrated by a newer version (${unknown.slice(0, 3).join(', ')}): run migrate:pg from that version.`);
    }
  }

  /** Refuses rows whose foreign keys point nowhere (the target re-checks every key after the copy). */
  checkForeignKeys(): void {
    const bad = this.db.pragma('foreign_key_check') as Array<{ table: string; rowid: number; parent: string }>;
    if (bad.length === 0) return;
    const sample = bad.slice(0, 5).map((b) => `${b.table} rowid ${b.rowid} → ${b.parent}`).join('; ');
    throw refuse(`the SQLite database has ${bad.length} row(s) whose foreign key points nowhere (${sample}): PostgreSQL would refuse them.`);
  }

  count(table: TableShape): number {
    return Number((this.db.prepare(`select count(*) as n from ${quoteIdent(table.name)}`).get() as { n: number }).n);
  }

  /** The next `limit` rows after key `after` (null: from the start), in key order; values as stored (integers as bigint). */
  batch(table: TableShape, after: unknown[] | null, limit: number): unknown[][] {
    const name = `${table.name}:${after ? 'after' : 'first'}`;
    let stmt = this.statements.get(name);
    if (!stmt) {
      const cols = table.columns.map(quoteIdent).join(', ');
      const key = table.key.map(quoteIdent).join(', ');
      const where = after ? `where (${key}) > (${after.map(() => '?').join(', ')})` : '';
      stmt = this.db.prepare(`select ${cols} from ${quoteIdent(table.name)} ${where} order by ${key} limit ?`).raw(true).safeIntegers(true);
      this.statements.set(name, stmt);
    }
    return stmt.all(...(after ?? []), limit) as unknown[][];
  }

  /** Every row in key order (SQLite's BINARY: byte order), for the checksum. */
  rows(table: TableShape): IterableIterator<unknown[]> {
    const stmt = this.db.prepare(
      `select ${table.columns.map(quoteIdent).join(', ')} from ${quoteIdent(table.name)} order by ${table.key.map(quoteIdent).join(', ')}`,
    );
    return stmt.raw(true).safeIntegers(true).iterate() as IterableIterator<unknown[]>;
  }

  /** The connection itself, for reading with the repositories (the action-log verifier). */
  get connection(): SQLite.Database {
    return this.db;
  }

  private readShapes(): TableShape[] {
    const tables = this.db.prepare(`select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`).all() as Array<{ name: string; sql: string | null }>;
    // SQLite's full-text index (migration 0098: FTS5 virtual tables and their shadow tables) is not
    // data: PostgreSQL keeps its own index of the same texts, built as blob_texts is copied.
    const virtual = tables.filter((t) => /^create\s+virtual\s+table/i.test(t.sql ?? '')).map((t) => t.name);
    const names = tables
      .map((r) => r.name)
      .filter((n) => !NOT_COPIED.has(n) && !virtual.some((v) => n === v || n.startsWith(`${v}_`)));
    return names.map((name) => {
      const info = this.db.pragma(`table_info(${quoteIdent(name)})`) as Array<{ name: string; pk: number }>;
      const fks = this.db.pragma(`foreign_key_list(${quoteIdent(name)})`) as Array<{ table: string }>;
      const key = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
      if (key.length === 0) throw refuse(`table ${name} has no primary key: migrate:pg copies by key`);
      return { name, columns: info.map((c) => c.name), key, references: [...new Set(fks.map((f) => f.table))].filter((t) => t !== name) };
    });
  }
}

/**
 * Tables ordered so that a table comes after those its foreign keys point at; a cycle (users ↔
 * departments) is broken at its alphabetically first table. The target's foreign keys are checked
 * once after the copy (target.ts), so the order is for the reader of the progress, not for correctness.
 */
export function foreignKeyOrder(tables: TableShape[]): TableShape[] {
  const left = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableShape[] = [];
  while (left.size > 0) {
    const ready = [...left.values()].filter((t) => t.references.every((r) => !left.has(r)));
    const next = ready.length > 0 ? ready : [[...left.values()].sort((a, b) => a.name.localeCompare(b.name))[0]!];
    for (const t of next.sort((a, b) => a.name.localeCompare(b.name))) {
      ordered.push(t);
      left.delete(t.name);
    }
  }
  return ordered;
}
