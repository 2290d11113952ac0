/**
 * What `npm run migrate:pg` checks after the copy: per table the row counts and the content
 * checksums of source and target (checksum.ts), and every tenant's action-log chain walked on both
 * with the verifier of `npm run audit:verify` (services/action-log/verify.ts) and the chain key.
 */
import { Kysely, SqliteDialect } from 'kysely';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { ActionLogRepository } from '../repositories/action-log-repository';
import { verifyChains, type ChainReport } from '../services/action-log/verify';
import { TableChecksum } from './checksum';
import { EXIT, MigrateStop } from './refusal';
import type { SqliteSource, TableShape } from './source';
import type { PostgresTarget } from './target';

export interface TableSum {
  table: string;
  rows: number;
  checksum: string;
}

export interface TableResult {
  table: string;
  sourceRows: number;
  targetRows: number;
  sourceChecksum: string;
  targetChecksum: string;
  ok: boolean;
}

export interface ChainResult {
  tenantId: string;
  sourceRows: number;
  targetRows: number;
  /** null: it holds; else the first broken link as the verifier words it. */
  sourceBroken: string | null;
  targetBroken: string | null;
  sameHead: boolean;
  ok: boolean;
}

const stopIfAborted = (signal: AbortSignal, what: string): void => {
  if (signal.aborted) throw new MigrateStop(EXIT.interrupted, `interrupted while ${what}`);
};

export function checksumSource(source: SqliteSource, signal: AbortSignal): TableSum[] {
  return source.tables.map((t) => {
    stopIfAborted(signal, 'reading the source');
    const sum = new TableChecksum();
    for (const row of source.rows(t)) sum.add(row);
    return { table: t.name, rows: sum.rows, checksum: sum.hex() };
  });
}

export async function checksumTarget(target: PostgresTarget, table: TableShape, signal: AbortSignal): Promise<TableSum> {
  const sum = new TableChecksum();
  for await (const page of target.rows(table)) {
    stopIfAborted(signal, 'verifying the target');
    for (const row of page) sum.add(row);
  }
  return { table: table.name, rows: sum.rows, checksum: sum.hex() };
}

export async function verifyTables(target: PostgresTarget, tables: TableShape[], sourceSums: TableSum[], signal: AbortSignal): Promise<TableResult[]> {
  const results: TableResult[] = [];
  for (const table of tables) {
    const src = sourceSums.find((s) => s.table === table.name)!;
    const [count, sum] = [await target.count(table), await checksumTarget(target, table, signal)];
    results.push({
      table: table.name,
      sourceRows: src.rows,
      targetRows: count,
      sourceChecksum: src.checksum,
      targetChecksum: sum.checksum,
      ok: src.rows === count && sum.rows === count && src.checksum === sum.checksum,
    });
  }
  return results;
}

const brokenText = (r: ChainReport | undefined): string | null =>
  !r ? 'no chain' : r.broken ? `row ${r.broken.seq} (${r.broken.reason}): ${r.broken.message}` : null;

/** Every tenant's chain on both sides; the source's connection is lent, not closed. */
export async function verifyActionLog(source: SqliteSource, target: PostgresTarget, key: Buffer): Promise<ChainResult[]> {
  // Not destroyed: Kysely's SQLite driver would close the source's (locked) connection.
  const sourceDb = new Kysely<Database>({ dialect: new SqliteDialect({ database: source.connection }) });
  const before = await verifyChains(new ActionLogRepository(sourceDb, key), key);
  const after = await verifyChains(new ActionLogRepository(target.kysely as unknown as Db, key), key);
  const tenants = [...new Set([...before, ...after].map((r) => r.tenantId))].sort();
  return tenants.map((tenantId) => {
    const s = before.find((r) => r.tenantId === tenantId);
    const t = after.find((r) => r.tenantId === tenantId);
    const sourceBroken = brokenText(s);
    const targetBroken = brokenText(t);
    const sameHead = !!s && !!t && s.lastSeq === t.lastSeq && s.headHash === t.headHash;
    return { tenantId, sourceRows: s?.rows ?? 0, targetRows: t?.rows ?? 0, sourceBroken, targetBroken, sameHead, ok: !sourceBroken && !targetBroken && sameHead };
  });
}
