import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTION_LOG_EXPORT_COLUMNS, type ActionLogEntry, type ActionLogListResponse } from '../../common/api/action-log';
import { ERRORS } from '../../common/api/errors';
import { actionLogExportUrl, API } from '../../common/api/paths';
import type { FileEntry } from '../../common/api/types';
import { openReadOnlyDatabase } from '../../server/db/database';
import { testDbUrl } from '../support/test-database';
import { ActionLogRepository } from '../../server/repositories/action-log-repository';
import { ActionLogQueryService } from '../../server/services/action-log-query-service';
import { loadChainKey } from '../../server/storage/chain-key';
import { oneRowOf } from './action-log-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, loggedInClient, login, MEMBER, startServer, userIdOf, type TestServer } from './helpers';

let server: TestServer;
let admin: Client;
let member: Client;
let memberId: string;
let start: number;

type List = { data: ActionLogListResponse; errorCode?: string };
const list = (client: Client, body: Record<string, unknown>) => client.post<List>(API.actionLogList, body);

/** Every page of a filter, following nextCursor. */
async function all(client: Client, body: Record<string, unknown>, pageSize = 3): Promise<ActionLogEntry[]> {
  const items: ActionLogEntry[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const res = await list(client, { ...body, cursor, pageSize });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.data.items);
    cursor = res.body.data.nextCursor;
    if (!cursor) return items;
  }
  throw new Error('too many pages');
}

const HOSTILE = ['=SUM(1+1)', '+1 (报表)', '-2+3', '@cmd'];

beforeAll(async () => {
  server = await startServer();
  start = Date.now();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  memberId = await userIdOf(server, 'member');
  for (const name of ['季度报表', 'Quarterly-REPORT', ...HOSTILE]) {
    expect((await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name })).status).toBe(200);
  }
  await member.post(API.mkdir, { parentId: null, category: 1, name: '成员的报表' });
  await member.post(API.mkdir, { parentId: null, category: 1, name: '成员的报表' }); // refused: name taken
  await login(server, new Client(server.baseUrl), { username: 'member', password: 'Wrong@2024' });
  // A user agent that is a formula, as a hostile client would send it.
  await member.request('POST', API.mkdir, { parentId: null, category: 1, name: 'ua' }, { 'user-agent': "=cmd|' /C calc'!A0" });
});
afterAll(async () => {
  await server.close();
});

describe('POST /api/actionLog/list', () => {
  it('newest first; keyset pages walk every row exactly once', async () => {
    const first = await list(admin, {});
    expect(first.status).toBe(200);
    const items = await all(admin, {});
    expect(items.map((i) => i.seq)).toEqual([...items.map((i) => i.seq)].sort((a, b) => b - a));
    expect(new Set(items.map((i) => i.seq)).size).toBe(items.length);
    expect(items.at(-1)!.seq).toBe(1);
    expect(first.body.data.head.seq).toBeGreaterThanOrEqual(items[0]!.seq);
    expect(first.body.data.head.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(items[0]).toMatchObject({ action: 'file.mkdir', outcome: 'ok', actor: { account: 'member', name: '张三', id: memberId }, platform: '' });
  });

  it('filters: operator, account, action(s), file name (any case, part of it), outcome, time range', async () => {
    const byMember = await all(admin, { userId: memberId });
    expect(byMember.length).toBeGreaterThan(0);
    expect(byMember.every((e) => e.actor.id === memberId)).toBe(true);
    // The failed login: refused, found by account and by outcome.
    const refused = await all(admin, { outcome: 'refused' });
    expect(refused.map((e) => [e.action, e.errorCode])).toEqual([
      ['file.mkdir', ERRORS.NAME_CONFLICT.code],
      ['auth.login', ERRORS.LOGIN_FAILED.code],
    ].reverse());
    expect((await all(admin, { account: 'member', outcome: 'refused', actions: ['auth.login'] })).map((e) => e.action)).toEqual(['auth.login']);
    const logins = await all(admin, { actions: ['auth.login'] });
    expect(logins.map((e) => e.actor.account).sort()).toEqual(['admin', 'member', 'member']);
    const loginsOrMkdirs = await all(admin, { actions: ['auth.login', 'file.mkdir'] });
    expect(loginsOrMkdirs.length).toBe(logins.length + (await all(admin, { actions: ['file.mkdir'] })).length);
    const reports = await all(admin, { fileName: 'REPORT' });
    expect(reports.map((e) => e.targets[0]!.name)).toEqual(['Quarterly-REPORT']);
    expect((await all(admin, { fileName: '报表' })).map((e) => e.targets[0]!.name)).toEqual(['成员的报表', '成员的报表', '+1 (报表)', '季度报表']);
    expect((await all(admin, { fileName: '报表', userId: memberId, outcome: 'ok' })).length).toBe(1);
    // Escaped like characters: % and _ match themselves only.
    expect(await all(admin, { fileName: '%' })).toEqual([]);
    expect(await all(admin, { from: Date.now() + 60_000 })).toEqual([]);
    const window = await all(admin, { from: start, to: Date.now() + 1 });
    expect(window.length).toBe((await all(admin, {})).length);
  });

  it("refuses bad filters with a coded error; another tenant's admin sees only its own tenant", async () => {
    expect((await list(admin, { actions: ['file.nope'] })).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await list(admin, { from: 10, to: 5 })).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await list(admin, { cursor: 'garbage' })).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await list(member, {})).body.errorCode).toBe(ERRORS.FORBIDDEN.code);
    await addTenantWithUser(server, 'other-admin', 'Other@2024');
    const { withDb } = await import('./helpers');
    await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'other-admin'").run());
    const other = await loggedInClient(server, { username: 'other-admin', password: 'Other@2024' });
    const theirs = await all(other, {});
    expect(theirs.map((e) => e.actor.account)).toEqual(['other-admin']);
    expect(await all(other, { userId: memberId })).toEqual([]);
  });

  it('department: the operators of a department and its sub-departments, as they were placed when they acted', async () => {
    const parent = (await admin.post<{ data: { id: string } }>(API.departmentCreate, { parentId: null, name: '研发部' })).body.data;
    const child = (await admin.post<{ data: { id: string } }>(API.departmentCreate, { parentId: parent.id, name: '前端组' })).body.data;
    expect((await admin.post(API.userSetDepartment, { ids: [memberId], departmentId: child.id })).status).toBe(200);
    const before = await all(admin, { departmentId: parent.id });
    expect(before).toEqual([]);
    await member.post(API.mkdir, { parentId: null, category: 1, name: '部门里建的' });
    for (const departmentId of [parent.id, child.id]) {
      const rows = await all(admin, { departmentId });
      expect(rows.map((e) => [e.actor.account, e.actor.departmentId, e.targets[0]?.name])).toEqual([['member', child.id, '部门里建的']]);
    }
    // Combined with a scanned filter (several departments' worth of ids go to the scan window).
    expect((await all(admin, { departmentId: parent.id, fileName: '部门' })).length).toBe(1);
    expect((await list(admin, { departmentId: 'no-such-dept-000000000' })).body).toMatchObject({ errorCode: ERRORS.NOT_FOUND.code });
    const res = await admin.raw(actionLogExportUrl({ format: 'csv', departmentId: parent.id }));
    const lines = Buffer.from(await res.arrayBuffer()).subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[4])).toEqual(['前端组']);
  });

  it('a scan window that does not fill the page says how far it looked, and the cursor goes on from there', async () => {
    const key = await loadChainKey(server.dataDir, undefined, false);
    const db = openReadOnlyDatabase(server.dataDir, await testDbUrl(server.dataDir));
    try {
      const tenantId = await userTenant(server);
      const service = new ActionLogQueryService(new ActionLogRepository(db, key), async (_t, d) => [d]);
      const plan = await service.plan(tenantId, { fileName: '季度' });
      const seen: string[] = [];
      let after = null;
      let calls = 0;
      for (;;) {
        const page = await service.page(plan, after, 10, 3);
        calls++;
        seen.push(...page.rows.map((r) => JSON.parse(r.targets)[0].name as string));
        if (page.rows.length < 10 && page.next) expect(page.scannedTo).toBe(page.next.at);
        if (!page.next) break;
        after = page.next;
      }
      expect(seen).toEqual(['季度报表']);
      expect(calls).toBeGreaterThan(2);
    } finally {
      await db.destroy();
    }
  });
});

async function userTenant(s: TestServer): Promise<string> {
  const { withDb } = await import('./helpers');
  return withDb(s, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
}

describe('GET /api/actionLog/export', () => {
  it('CSV: BOM, Chinese headers, the filtered rows newest first, formula-like cells neutralised; the export is itself on record', async () => {
    let text = '';
    const row = await oneRowOf(server, async () => {
      const res = await admin.raw(actionLogExportUrl({ format: 'csv', userId: memberId, tzOffset: -480 }));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/csv');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment;.*\.csv/);
      const bytes = Buffer.from(await res.arrayBuffer());
      // UTF-8 with a BOM, so Excel reads the Chinese right.
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      text = bytes.subarray(3).toString('utf8');
    });
    expect(row).toMatchObject({ action: 'audit.export', outcome: 'ok', actor_account: 'admin' });
    expect(row.parsedDetail).toEqual({ format: 'csv', filter: { userId: memberId } });
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(ACTION_LOG_EXPORT_COLUMNS.join(','));
    const expected = await all(admin, { userId: memberId });
    expect(lines.length - 1).toBe(expected.length);
    const uaLine = lines.find((l) => l.includes(',ua,'))!;
    expect(uaLine).toContain(`,'=cmd|' /C calc'!A0,`);
    expect(lines.filter((l) => l.includes('=cmd')).every((l) => l.includes("'=cmd"))).toBe(true);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,member,张三,普通用户,/);
  });

  it('XLSX: a real workbook (read back with exceljs), the same rows, every hostile name neutralised', async () => {
    const res = await admin.raw(actionLogExportUrl({ format: 'xlsx', actions: 'file.mkdir', outcome: 'ok' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const sheet = book.getWorksheet('操作日志')!;
    const rows: string[][] = [];
    sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
    expect(rows[0]).toEqual([...ACTION_LOG_EXPORT_COLUMNS]);
    const expected = await all(admin, { actions: ['file.mkdir'], outcome: 'ok' });
    expect(rows.length - 1).toBe(expected.length);
    const objects = rows.slice(1).map((r) => r[7]!);
    for (const name of HOSTILE) expect(objects, name).toContain(`'${name}`);
    expect(objects).toContain('季度报表');
    expect(rows.slice(1).map((r) => Number(r[17]))).toEqual(expected.map((e) => e.seq));
  });

  it('refuses a bad format or filter before writing anything', async () => {
    expect((await admin.get(`${API.actionLogExport}?format=pdf`)).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    expect((await admin.get(`${API.actionLogExport}?format=csv&actions=nope`)).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
  });
});
