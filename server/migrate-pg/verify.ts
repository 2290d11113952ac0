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
  targetRows: number;
  /**
   * null: it holds; else the first broken link as the verifier words it. The source's chain is walked
   * only when the target's does not hold (else null: its head matched the target's, which held).
   */
  sourceBroken: string | null;
  targetBroken: string | null;
  sameHead: boolean;
  ok: boolean;
}

const stopIfAborted = (signal: AbortSignal, what: string): void => {
  if (signal.aborted) throw new MigrateStop(EXIT.interrupted, `interrupted while ${what}`);
};

/** Reads are synchronous (better-sqlite3): every few thousand rows the event loop gets a turn, so Ctrl-C is heard. */
const YIELD_EVERY = 5000;

export async function checksumSource(source: SqliteSource, signal: AbortSignal): Promise<TableSum[]> {
  const sums: TableSum[] = [];
  for (const t of source.tables) {
    const sum = new TableChecksum();
    const rows = source.rows(t);
    try {
      for (const row of rows) {
        sum.add(row);
        if (sum.rows % YIELD_EVERY === 0) {
          await new Promise((resolve) => setImmediate(resolve));
          stopIfAborted(signal, 'reading the source');
        }
      }
    } finally {
      rows.return?.();
    }
    sums.push({ table: t.name, rows: sum.rows, checksum: sum.hex() });
  }
  return sums;
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

/**
 * Every tenant's chain walked on the target, heads compared with the source's; the source's chains
 * are walked too only when one on the target does not hold (to tell a broken copy from a chain that
 * was broken before). The source's connection is lent, not closed.
 */
export async function verifyActionLog(source: SqliteSource, target: PostgresTarget, key: Buffer): Promise<ChainResult[]> {
  // Not destroyed: Kysely's SQLite driver would close the source's (locked) connection.
  const sourceDb = new Kysely<Database>({ dialect: new SqliteDialect({ database: source.connection }) });
  const sourceRepo = new ActionLogRepository(sourceDb, key);
  const after = await verifyChains(new ActionLogRepository(target.kysely as unknown as Db, key), key);
  const sourceHeads = await sourceRepo.heads();
  const before = after.some((r) => r.broken) ? await verifyChains(sourceRepo, key) : null;
  const tenants = [...new Set([...sourceHeads.map((h) => h.tenant_id), ...after.map((r) => r.tenantId)])].sort();
  return tenants.map((tenantId) => {
    const head = sourceHeads.find((h) => h.tenant_id === tenantId);
    const t = after.find((r) => r.tenantId === tenantId);
    const targetBroken = brokenText(t);
    const sourceBroken = before ? brokenText(before.find((r) => r.tenantId === tenantId)) : head ? null : 'no chain';
    const sameHead = !!head && !!t && Number(head.seq) === t.lastSeq && head.hash === t.headHash;
    return { tenantId, targetRows: t?.rows ?? 0, sourceBroken, targetBroken, sameHead, ok: !targetBroken && sameHead };
  });
}
