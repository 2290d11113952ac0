/**
 * Copies one table from the SQLite source to the PostgreSQL target in batches: keyset pages on the
 * primary key (`where (key) > (last) order by key limit n`), each batch inserted with its progress row
 * in one target transaction (target.ts), values converted by the one rule of db/postgres.ts.
 */
import { sqliteValueForPostgres } from '../db/postgres';
import { EXIT, MigrateStop } from './refusal';
import type { SqliteSource, TableShape } from './source';
import type { PostgresTarget, TableProgress } from './target';

export interface CopyProgress {
  table: string;
  copied: number;
  total: number;
  done: boolean;
}

function convert(table: TableShape, row: unknown[]): unknown[] {
  return row.map((value, i) => {
    try {
      return sqliteValueForPostgres(value);
    } catch (err) {
      const key = table.key.map((k) => `${k}=${String(row[table.columns.indexOf(k)])}`).join(', ');
      throw new MigrateStop(EXIT.failed, `${table.name} (${key}) column ${table.columns[i]}: ${(err as Error).message}`);
    }
  });
}

export async function copyTable(
  source: SqliteSource,
  target: PostgresTarget,
  table: TableShape,
  progress: TableProgress,
  options: { batchSize: number; total: number; signal: AbortSignal; onProgress: (p: CopyProgress) => void },
): Promise<number> {
  if (progress.done) return 0;
  const limit = options.batchSize;
  const keyAt = table.key.map((k) => table.columns.indexOf(k));
  let after = progress.last_key ? (JSON.parse(progress.last_key) as unknown[]) : null;
  let copied = Number(progress.rows_copied);
  let thisRun = 0;
  for (;;) {
    if (options.signal.aborted) throw new MigrateStop(EXIT.interrupted, `interrupted while copying ${table.name} (${copied} of ${options.total} rows)`);
    const rows = source.batch(table, after, limit);
    if (rows.length === 0) {
      await target.markTableDone(table);
      options.onProgress({ table: table.name, copied, total: options.total, done: true });
      return thisRun;
    }
    const converted = rows.map((r) => convert(table, r));
    const last = converted[converted.length - 1]!;
    const lastKey = keyAt.map((i) => last[i]);
    const done = rows.length < limit;
    await target.writeBatch(table, converted, lastKey, done);
    after = lastKey;
    copied += rows.length;
    thisRun += rows.length;
    options.onProgress({ table: table.name, copied, total: options.total, done });
    if (done) return thisRun;
  }
}
