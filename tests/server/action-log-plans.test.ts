import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import type { Database } from '../../server/db/schema';
import { ActionLogRepository, type IndexedFilter } from '../../server/repositories/action-log-repository';
import { ActionLogQueryService } from '../../server/services/action-log-query-service';
import { onPostgres } from '../support/test-database';

/**
 * A filtered first page of the action log must be one index range walk in (at, seq) order that
 * stops after a page: EXPLAIN QUERY PLAN of the real queries names the index of the filter, and no
 * temp B-tree sorts the rows (that would read every matching row before the first is returned).
 */
let dir: string;
let db: Kysely<Database>;
let raw: SQLite.Database;
let repo: ActionLogRepository;
/**
 * The statistics a log of 1,000,000 rows in two tenants has (1,000 operators, 50 actions, 200
 * departments, 1 % refused), as the sweeper's ANALYZE leaves them: the planner's choice depends on
 * them (without any, SQLite's guesses prefer a two-sided time range to an operator's index).
 */
const STATS: Array<[string | null, string]> = [
  [null, '1000000'],
  ['sqlite_autoindex_action_log_1', '1000000 500000 1'],
  ['action_log_time', '1000000 500000 1 1'],
  ['action_log_actor', '1000000 500000 1000 1 1'],
  ['action_log_action', '1000000 500000 20000 1 1'],
  ['action_log_dept', '1000000 500000 5000 1 1'],
  ['action_log_refused', '10000 5000 1 1'],
];

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'audit-plans-'));
  db = await openDatabase({ dataDir: dir } as ServerConfig);
  repo = new ActionLogRepository(db, Buffer.alloc(32));
  await repo.refreshStatistics();
  const setup = new SQLite(path.join(dir, 'drive.sqlite'));
  setup.prepare("delete from sqlite_stat1 where tbl = 'action_log'").run();
  for (const [idx, stat] of STATS) setup.prepare('insert into sqlite_stat1 (tbl, idx, stat) values (?, ?, ?)').run('action_log', idx, stat);
  setup.close();
  // A connection opened now reads the statistics.
  raw = new SQLite(path.join(dir, 'drive.sqlite'));
});
afterAll(async () => {
  raw.close();
  await db.destroy();
  await fsp.rm(dir, { recursive: true, force: true });
});

function plan(compiled: { sql: string; parameters: readonly unknown[] }): string {
  return (raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
}

const base: IndexedFilter = { tenantId: 't' };
const cases: Array<[string, IndexedFilter, string]> = [
  ['no filter', base, 'action_log_time'],
  ['time range', { ...base, from: 0, to: 2 }, 'action_log_time'],
  ['operator', { ...base, actorId: 'u' }, 'action_log_actor'],
  ['operator + time range', { ...base, actorId: 'u', from: 0, to: 2 }, 'action_log_actor'],
  ['action', { ...base, action: 'file.rename', from: 0 }, 'action_log_action'],
  ['department', { ...base, deptId: 'd', to: 2 }, 'action_log_dept'],
  ['refused', { ...base, outcome: 'refused', from: 0, to: 2 }, 'action_log_refused'],
];

// SQLite's planner (the PostgreSQL stage checks PostgreSQL's: postgres-plans.test.ts).
describe.skipIf(onPostgres())('action log query plans (SQLite)', () => {
  for (const [label, filter, index] of cases) {
    it(`${label}: ${index}, keyset seek, no sort`, () => {
      for (const after of [null, { at: 1, seq: 9 }]) {
        const p = plan(repo.pageQuery(filter, after, 51).compile());
        expect(p).toContain(`USING INDEX ${index}`);
        expect(p).not.toContain('TEMP B-TREE');
        // A later page seeks to its cursor (a deep page costs what the first one does).
        if (after) expect(p).toContain('(at,seq)<(?,?)');
      }
    });
  }

  it('the service puts one equality filter on the index and the rest in the scan window', async () => {
    const service = new ActionLogQueryService(repo, async (_t, d) => [d, `${d}-child`]);
    const p = await service.plan('t', { userId: 'u', actions: ['file.rename'], outcome: 'refused', fileName: 'A', departmentId: 'd' });
    expect(p.indexed).toEqual({ tenantId: 't', from: undefined, to: undefined, outcome: 'refused' });
    expect(p.scanned).toEqual({ actorId: 'u', actions: ['file.rename'], deptIds: ['d', 'd-child'], nameKey: 'a' });
    const window = plan(repo.windowQuery(p.indexed, p.scanned, null, 20_000, 51).compile());
    expect(window).toContain('USING INDEX action_log_refused');
    // The window is taken in index order; only its (bounded) rows are filtered and ordered again.
    const end = plan(repo.windowEndQuery(p.indexed, null, 20_000).compile());
    expect(end).toContain('USING COVERING INDEX action_log_refused');
  });
});
