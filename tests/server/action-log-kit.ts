import { expect } from 'vitest';
import type { ActionTarget } from '../../common/api/action-codes';
import { openReadOnlyDatabase } from '../../server/db/database';
import { testDbUrl } from '../support/test-database';
import type { ActionLogTable } from '../../server/db/schema';
import { ActionLogRepository } from '../../server/repositories/action-log-repository';
import { verifyChains, type ChainReport } from '../../server/services/action-log/verify';
import { loadChainKey } from '../../server/storage/chain-key';
import { withDb, type TestServer } from './helpers';

export type LogRow = ActionLogTable & { parsedTargets: ActionTarget[]; parsedDetail: Record<string, unknown> | null };

/** Every action log row of the server's database, in (tenant, seq) order. */
export async function logRows(server: TestServer): Promise<LogRow[]> {
  // Rows are written before the answer leaves, so they are there once a request has returned.
  const rows = await withDb(server, (db) => db.prepare('select * from action_log order by tenant_id, seq').all() as ActionLogTable[]);
  return rows.map((r) => ({ ...r, parsedTargets: JSON.parse(r.targets) as ActionTarget[], parsedDetail: r.detail ? (JSON.parse(r.detail) as Record<string, unknown>) : null }));
}

export async function lastSeq(server: TestServer): Promise<Map<string, number>> {
  const heads = await withDb(server, (db) => db.prepare('select tenant_id, seq from action_log_heads').all() as Array<{ tenant_id: string; seq: number }>);
  return new Map(heads.map((h) => [h.tenant_id, h.seq]));
}

/** Runs `fn` and returns the rows it left (in every chain). */
export async function rowsOf(server: TestServer, fn: () => Promise<unknown>): Promise<LogRow[]> {
  const before = await lastSeq(server);
  await fn();
  const rows = await logRows(server);
  return rows.filter((r) => r.seq > (before.get(r.tenant_id) ?? 0));
}

/** Runs `fn` and asserts it left exactly one row, which it returns. */
export async function oneRowOf(server: TestServer, fn: () => Promise<unknown>, label = ''): Promise<LogRow> {
  const rows = await rowsOf(server, fn);
  expect(rows.map((r) => `${r.action} ${r.outcome} ${r.error_code ?? ''}`), `${label}: exactly one action log row`).toHaveLength(1);
  return rows[0]!;
}

/** verifyChains over the server's database with its chain key (what `npm run audit:verify` does). */
export async function verifyServer(server: TestServer): Promise<ChainReport[]> {
  const key = await loadChainKey(server.dataDir, undefined, false);
  const db = openReadOnlyDatabase(server.dataDir, await testDbUrl(server.dataDir));
  try {
    return await verifyChains(new ActionLogRepository(db, key), key);
  } finally {
    await db.destroy();
  }
}

export async function expectChainsHold(server: TestServer): Promise<void> {
  const reports = await verifyServer(server);
  expect(reports.filter((r) => r.broken).map((r) => r.broken)).toEqual([]);
}
