/**
 * The action log at scale: 1,000,000 records of one tenant (1,000 operators, half a year) written
 * straight into the database of a real server, chained and hashed exactly as the server does, then
 * the statistics refreshed by one sweeper pass. Every timed request goes through the real route
 * (`app.inject`: routing, session guard, validation, the query, the answer).
 *
 * - `auditFilteredPageP99Ms`: the worst p99 of a filtered first page (50 rows) over the filters an
 *   index serves — operator, operator within 30 days, one action, refusals, one department (goal ≤ 50);
 * - `auditScanPageP99Ms`: the worst p99 of one call with a filter no index orders (an object name:
 *   one scan window of 20,000 rows);
 * - `auditDeepPageP99Ms`: a page 10,000 rows down the unfiltered log, by cursor;
 * - `auditExportRowsPerSecond`: a CSV export of one action type (~60,000 rows), streamed;
 * - `auditVerifyMs`: `audit:verify`'s walk over the whole chain;
 * - `auditRows`, `auditGenerateMs`.
 */
import { API } from '../../../common/api/paths';
import type { ActionLogListResponse } from '../../../common/api/action-log';
import { openReadOnlyDatabase } from '../../../server/db/database';
import { ActionLogRepository } from '../../../server/repositories/action-log-repository';
import { verifyChains } from '../../../server/services/action-log/verify';
import { loadChainKey } from '../../../server/storage/chain-key';
import { liftPasswordGate, startServerAsAdmin, userIdOf, withDb } from '../../server/helpers';
import { generateAuditLog } from '../lib/audit-log';
import type { BenchModule, BenchRow } from '../lib/report';

const ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const SPAN_MS = 180 * 24 * 3600 * 1000 - 3600 * 1000;
const ITERATIONS = 200;
const WARMUP = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const round2 = (n: number) => Math.round(n * 100) / 100;

export const auditBenchmark: BenchModule = {
  name: 'audit',
  columns: ['request', 'rows', 'p50 ms', 'p99 ms', 'max ms'],
  async run() {
    const { server, admin } = await startServerAsAdmin({ logger: false });
    try {
      await liftPasswordGate(server, 'member');
      const operatorId = await userIdOf(server, 'member');
      const tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
      const key = await loadChainKey(server.dataDir, undefined, false);
      const generated = performance.now();
      const log = await withDb(server, (db) => generateAuditLog(db, key, tenantId, operatorId, ROWS, SPAN_MS));
      const generateMs = performance.now() - generated;
      // The hourly pass: nothing is past the retention yet; the planner's statistics are refreshed.
      await server.app.sweeper.sweepOnce();

      const cookie = admin.cookie;
      const list = async (body: Record<string, unknown>) => {
        const res = await server.app.inject({ method: 'POST', url: API.actionLogList, payload: body, headers: { cookie } });
        if (res.statusCode !== 200) throw new Error(`list failed: ${res.body}`);
        return (res.json() as { data: ActionLogListResponse }).data;
      };
      const time = async (body: Record<string, unknown>) => {
        const times: number[] = [];
        let page: ActionLogListResponse | undefined;
        for (let i = 0; i < WARMUP + ITERATIONS; i++) {
          const start = performance.now();
          page = await list(body);
          if (i >= WARMUP) times.push(performance.now() - start);
        }
        return { sorted: times.sort((a, b) => a - b), page: page! };
      };
      const rows: BenchRow[] = [];
      const cells = (sorted: number[], n: number) => ({
        rows: String(n),
        'p50 ms': percentile(sorted, 50).toFixed(2),
        'p99 ms': percentile(sorted, 99).toFixed(2),
        'max ms': sorted[sorted.length - 1]!.toFixed(2),
      });

      const month = log.lastAt - 30 * 24 * 3600 * 1000;
      const unfiltered = await time({ pageSize: 50 });
      rows.push({ label: 'first page, no filter', cells: cells(unfiltered.sorted, unfiltered.page.items.length) });
      const filtered: Array<[string, Record<string, unknown>]> = [
        ['operator', { userId: log.operatorId }],
        ['operator, last 30 days', { userId: log.operatorId, from: month, to: log.lastAt + 1 }],
        ['action (file.delete)', { actions: ['file.delete'] }],
        ['refused only', { outcome: 'refused' }],
        ['department', { departmentId: log.departmentId }],
        ['action, last 30 days', { actions: ['file.rename'], from: month }],
      ];
      const filteredP99: number[] = [];
      for (const [label, filter] of filtered) {
        const r = await time({ ...filter, pageSize: 50 });
        if (r.page.items.length !== 50 && ROWS >= 1_000_000) throw new Error(`${label}: the first page is not full (${r.page.items.length})`);
        filteredP99.push(percentile(r.sorted, 99));
        rows.push({ label: `first page, ${label}`, cells: cells(r.sorted, r.page.items.length) });
      }
      const scanned: Array<[string, Record<string, unknown>]> = [
        ['object name, frequent ("合同")', { fileName: '合同' }],
        ['object name, rare ("-4242.")', { fileName: '-4242.' }],
        ['operator + action (one scanned)', { userId: log.operatorId, actions: ['file.download'] }],
      ];
      const scanP99: number[] = [];
      for (const [label, filter] of scanned) {
        const r = await time({ ...filter, pageSize: 50 });
        scanP99.push(percentile(r.sorted, 99));
        rows.push({ label: `one call, ${label}${r.page.scannedTo ? ' (window not filled)' : ''}`, cells: cells(r.sorted, r.page.items.length) });
      }
      // 10,000 rows down by cursor: the page costs what the first one does (keyset).
      let cursor: string | null = null;
      for (let i = 0; i < 50; i++) cursor = (await list({ pageSize: 200, cursor })).nextCursor;
      const deep = await time({ pageSize: 50, cursor });
      rows.push({ label: 'page 10,000 rows down, no filter', cells: cells(deep.sorted, deep.page.items.length) });

      const exportStart = performance.now();
      const exported = await server.app.inject({ method: 'GET', url: `${API.actionLogExport}?format=csv&actions=file.rename`, headers: { cookie } });
      const exportMs = performance.now() - exportStart;
      if (exported.statusCode !== 200) throw new Error(`export failed: ${exported.statusCode}`);
      const exportRows = exported.body.trimEnd().split('\r\n').length - 1;
      rows.push({ label: `CSV export, one action (${exportRows} rows)`, cells: { rows: String(exportRows), 'p50 ms': exportMs.toFixed(0), 'p99 ms': '', 'max ms': '' } });

      const verifyStart = performance.now();
      const db = openReadOnlyDatabase(server.dataDir);
      let verified = 0;
      try {
        const reports = await verifyChains(new ActionLogRepository(db, key), key);
        if (reports.some((r) => r.broken)) throw new Error(`chain broken: ${JSON.stringify(reports.find((r) => r.broken)!.broken)}`);
        verified = reports.reduce((n, r) => n + r.rows, 0);
      } finally {
        await db.destroy();
      }
      const verifyMs = performance.now() - verifyStart;
      rows.push({ label: `audit:verify (${verified} rows)`, cells: { rows: String(verified), 'p50 ms': verifyMs.toFixed(0), 'p99 ms': '', 'max ms': '' } });

      return {
        rows,
        metrics: {
          auditRows: log.rows,
          auditGenerateMs: Math.round(generateMs),
          auditFirstPageP99Ms: round2(percentile(unfiltered.sorted, 99)),
          auditFilteredPageP99Ms: round2(Math.max(...filteredP99)),
          auditScanPageP99Ms: round2(Math.max(...scanP99)),
          auditDeepPageP99Ms: round2(percentile(deep.sorted, 99)),
          auditExportRowsPerSecond: Math.round(exportRows / (exportMs / 1000)),
          auditVerifyMs: Math.round(verifyMs),
        },
      };
    } finally {
      await server.close();
    }
  },
};
