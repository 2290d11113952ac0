import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl } from '../../common/api/paths';
import { statsDayLabel, statsDayOf, type DeskSummary, type FileTypesReport, type GrowthReport, type LoginsReport, type SharingReport, type StorageReport } from '../../common/api/reports';
import type { Database } from '../../server/db/schema';
import { ActionLogRepository, type NewActionRow } from '../../server/repositories/action-log-repository';
import { loadChainKey } from '../../server/storage/chain-key';
import { openTestKysely } from '../support/test-database';
import { addUser, ADMIN, Client, liftPasswordGate, loggedInClient, login, MEMBER, startServer, uploadFile, withDb, type TestServer } from './helpers';

const DAY = 86_400_000;
let server: TestServer;
let admin: Client;
let member: Client;
let tenantId: string;
let db: Kysely<Database>;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  tenantId = await withDb(server, (d) => (d.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
  db = await openTestKysely<Database>(server.dataDir);
});
afterAll(async () => {
  await db?.destroy();
  await server?.close();
});

const range = (from: number, to: number) => `from=${statsDayLabel(from)}&to=${statsDayLabel(to)}`;
async function report<T>(query: string): Promise<T> {
  const res = await admin.get<{ data: T }>(`${API.reportGet}?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const extOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

describe('工作台: the figures of what people did through the API', () => {
  it("today's uploads and downloads, failed sign-ins, desktop versions and waiting items equal a direct count", async () => {
    const contents = [randomBytes(3000), randomBytes(5000), randomBytes(700)];
    const names = ['季度报告.PDF', 'notes.txt', '预算.xlsx'];
    const ids: string[] = [];
    for (let i = 0; i < contents.length; i++) {
      const res = await uploadFile(i === 2 ? member : admin, contents[i]!, names[i]!);
      expect(res.status).toBe(200);
      ids.push(res.body.data.id);
    }
    const got = await admin.raw(downloadUrl(ids[0]!));
    expect(got.status).toBe(200);
    await got.arrayBuffer();
    expect((await login(server, new Client(server.baseUrl), { username: MEMBER.username, password: 'wrong-Password1' })).status).toBe(400);
    const desktop = new Client(server.baseUrl);
    const agent = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) cloud-drive/2.3.1 Chrome/130.0.6723.191 Electron/33.2.1 Safari/537.36';
    expect((await login(server, desktop, MEMBER, { [HEADER_PLATFORM]: 'desktop', [HEADER_NETWORK_ENV]: 'public', 'user-agent': agent })).status).toBe(200);

    const res = await admin.get<{ data: DeskSummary }>(API.reportDesk);
    expect(res.status).toBe(200);
    const desk = res.body.data;
    const today = statsDayOf(Date.now());
    expect(desk.today).toBe(statsDayLabel(today));
    expect(desk.transfers).toHaveLength(30);
    // The direct count: the action log's rows of today.
    const rows = await db.selectFrom('action_log').selectAll().where('tenant_id', '=', tenantId).where('at', '>=', today * DAY - 8 * 3_600_000).execute();
    const ok = (action: string) => rows.filter((r) => r.outcome === 'ok' && r.action === action);
    const size = (r: { detail: string | null }) => Number((JSON.parse(r.detail ?? '{}') as { size?: number }).size ?? 0);
    const last = desk.transfers.at(-1)!;
    expect(last.uploads).toBe(ok('file.upload').length);
    expect(last.uploads).toBe(3);
    expect(last.uploadBytes).toBe(ok('file.upload').reduce((s, r) => s + size(r), 0));
    expect(last.uploadBytes).toBe(8700);
    expect(last.downloads).toBe(1);
    expect(last.downloadBytes).toBe(3000);
    expect(desk.failedLogins24h).toBe(rows.filter((r) => r.action === 'auth.login' && r.outcome === 'refused').length);
    expect(desk.failedLogins24h).toBeGreaterThanOrEqual(1);
    expect(desk.desktopVersions).toEqual([{ clientType: 4, version: '2.3.1', sessions: 1, people: 1 }]);
    expect(desk.active.today).toBe(2);
    const users = await db.selectFrom('users').select(['used_size', 'quota', 'locked']).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).execute();
    expect(desk.storage).toEqual({ used: users.reduce((s, u) => s + Number(u.used_size), 0), quota: users.reduce((s, u) => s + Number(u.quota), 0), people: users.length });
    expect(desk.lockedAccounts).toBe(users.filter((u) => u.locked === 1).length);
    expect(desk.topPeople[0]).toMatchObject({ account: 'admin', used: 8000 });

    const types = await report<FileTypesReport>(`kind=fileTypes&${range(today, today)}`);
    expect(types.types).toEqual(
      expect.arrayContaining([
        { ext: 'pdf', count: 1, bytes: 3000 },
        { ext: 'txt', count: 1, bytes: 5000 },
        { ext: 'xlsx', count: 1, bytes: 700 },
      ]),
    );
  });

  it('members are refused (AUTH-1005); a backwards or too long range is refused with its code', async () => {
    const res = await member.get<{ errorCode: string }>(API.reportDesk);
    expect(res.body.errorCode).toBe(ERRORS.FORBIDDEN.code);
    const back = await admin.get<{ errorCode: string }>(`${API.reportGet}?kind=growth&from=2026-02-01&to=2026-01-01`);
    expect([back.status, back.body.errorCode]).toEqual([400, ERRORS.REPORT_RANGE_INVALID.code]);
    const long = await admin.get<{ errorCode: string }>(`${API.reportGet}?kind=growth&from=2020-01-01&to=2026-01-01`);
    expect(long.body.errorCode).toBe(ERRORS.REPORT_RANGE_INVALID.code);
  });
});

interface Person {
  id: string;
  dept: string;
}

/** Generated actions over 40 days, people in a small department tree, appended through the log's own writer. */
async function generate(people: readonly Person[], count: number, fromDay: number): Promise<NewActionRow[]> {
  const key = await loadChainKey(server.dataDir, undefined, false);
  const repo = new ActionLogRepository(db, key);
  const exts = ['pdf', 'docx', 'png', 'zip', ''];
  const actions = ['file.upload', 'file.versionNew', 'file.download', 'file.zip', 'auth.login', 'auth.smsLogin', 'share.create', 'link.create', 'link.open', 'link.download', 'apply.submit', 'apply.approve', 'apply.reject', 'apply.withdraw', 'file.rename'];
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % n;
  };
  const rows: NewActionRow[] = [];
  for (let i = 0; i < count; i++) {
    const p = people[rand(people.length)]!;
    const action = actions[rand(actions.length)]!;
    const ext = exts[rand(exts.length)]!;
    const name = ext ? `文件${i}.${ext.toUpperCase()}` : `无扩展名${i}`;
    const size = 1 + rand(1_000_000);
    const at = (fromDay + rand(40)) * DAY - 8 * 3_600_000 + rand(DAY);
    const detail = action === 'file.zip' ? { bytes: size, entries: 2 } : action.startsWith('file.') ? { size } : {};
    rows.push({
      tenant_id: tenantId,
      at,
      actor_id: p.id,
      actor_account: p.id,
      actor_name: '',
      actor_role: 'member',
      dept_id: p.dept,
      action,
      targets: JSON.stringify([{ type: 'file', id: `f${i}`, name }]),
      names_key: name.toLowerCase(),
      detail: JSON.stringify(detail),
      outcome: rand(10) === 0 ? 'refused' : 'ok',
      error_code: null,
      address: '127.0.0.1',
      client_type: rand(2) === 0 ? 3 : 4,
      network_env: rand(2) === 0 ? 'internal' : 'public',
      platform: rand(3) === 0 ? 'web' : 'desktop',
      user_agent: 'test',
    });
  }
  // In time order, as a server records them (a person's first action of a day counts them active).
  rows.sort((a, b) => a.at - b.at);
  for (let i = 0; i < rows.length; i += 300) await repo.append(rows.slice(i, i + 300));
  return rows;
}

describe('统计报表: aggregates equal a direct count of the log on generated data', () => {
  let people: Person[];
  let rows: NewActionRow[];
  let depts: { root: string; child: string; other: string };
  const fromDay = statsDayOf(Date.now()) - 60;
  const toDay = fromDay + 39;

  beforeAll(async () => {
    const now = Date.now();
    const dept = async (name: string, parent: string | null) => {
      const id = randomBytes(12).toString('base64url');
      await db.insertInto('departments').values({ id, tenant_id: tenantId, parent_id: parent, name, name_key: name, sort_order: 0, manager_id: null, kind: 'normal', created_at: now, updated_at: now }).execute();
      return id;
    };
    const root = await dept('研发部', null);
    depts = { root, child: await dept('前端组', root), other: await dept('市场部', null) };
    people = [];
    for (const [i, d] of [depts.root, depts.child, depts.child, depts.other, depts.other, depts.other].entries()) {
      const id = await addUser(server, tenantId, `gen${i}`, 'Gen@2024-pass');
      await db.updateTable('users').set({ department_id: d, used_size: (i + 1) * 1000 }).where('id', '=', id).execute();
      people.push({ id, dept: d });
    }
    rows = await generate(people, 3000, fromDay);
  });

  const inScope = (r: NewActionRow, scope: readonly string[] | null) => scope === null || scope.includes(r.dept_id ?? '');
  const done = (scope: readonly string[] | null, pred: (r: NewActionRow) => boolean) => rows.filter((r) => r.outcome === 'ok' && inScope(r, scope) && pred(r));
  const bytesOf = (r: NewActionRow) => {
    const d = JSON.parse(r.detail ?? '{}') as { size?: number; bytes?: number };
    return r.action === 'file.zip' ? (d.bytes ?? 0) : (d.size ?? 0);
  };

  for (const [label, scopeOf] of [
    ['the whole tenant', () => null],
    ['a department with its sub-department', () => [depts.root, depts.child]],
  ] as const) {
    it(`growth, file types, sharing and logins (${label})`, async () => {
      const scope = scopeOf();
      const q = `${range(fromDay, toDay)}${scope ? `&departmentId=${depts.root}` : ''}`;
      const growth = await report<GrowthReport>(`kind=growth&${q}`);
      const uploads = done(scope, (r) => r.action === 'file.upload' || r.action === 'file.versionNew');
      const downloads = done(scope, (r) => ['file.download', 'file.zip'].includes(r.action));
      expect(growth.days).toHaveLength(40);
      expect(growth.totals).toEqual({
        uploads: uploads.length,
        uploadBytes: uploads.reduce((s, r) => s + bytesOf(r), 0),
        downloads: downloads.length,
        downloadBytes: downloads.reduce((s, r) => s + bytesOf(r), 0),
      });
      for (const d of growth.days) {
        const ofDay = rows.filter((r) => inScope(r, scope) && statsDayLabel(statsDayOf(r.at)) === d.day);
        expect(d.uploads).toBe(ofDay.filter((r) => r.outcome === 'ok' && (r.action === 'file.upload' || r.action === 'file.versionNew')).length);
        // Every generated action is by a person: a day's active people are the distinct actors.
        expect(d.activePeople).toBe(new Set(ofDay.map((r) => r.actor_id)).size);
      }

      const types = await report<FileTypesReport>(`kind=fileTypes&${q}`);
      const byExt = new Map<string, { count: number; bytes: number }>();
      for (const r of uploads) {
        const ext = extOf((JSON.parse(r.targets) as Array<{ name: string }>)[0]!.name);
        const t = byExt.get(ext) ?? { count: 0, bytes: 0 };
        t.count++;
        t.bytes += bytesOf(r);
        byExt.set(ext, t);
      }
      expect(new Map(types.types.map((t) => [t.ext, { count: t.count, bytes: t.bytes }]))).toEqual(byExt);

      const sharing = await report<SharingReport>(`kind=sharing&${q}`);
      expect(sharing.totals).toEqual({
        shares: done(scope, (r) => r.action === 'share.create').length,
        links: done(scope, (r) => r.action === 'link.create').length,
        linkVisits: done(scope, (r) => r.action === 'link.open').length,
        linkDownloads: done(scope, (r) => r.action === 'link.download').length,
      });
      expect(sharing.applications).toEqual({
        submit: done(scope, (r) => r.action === 'apply.submit').length,
        approve: done(scope, (r) => r.action === 'apply.approve').length,
        reject: done(scope, (r) => r.action === 'apply.reject').length,
        withdraw: done(scope, (r) => r.action === 'apply.withdraw').length,
        expire: 0,
      });
      for (const a of sharing.approvers) expect(a.approve).toBe(done(scope, (r) => r.action === 'apply.approve' && r.actor_id === a.id).length);

      const logins = await report<LoginsReport>(`kind=logins&${q}`);
      const signIns = rows.filter((r) => inScope(r, scope) && (r.action === 'auth.login' || r.action === 'auth.smsLogin'));
      for (const row of logins.rows) {
        const match = signIns.filter((r) => (r.platform === 'desktop' ? String(r.client_type) : 'web') === row.client && r.network_env === row.network);
        expect([row.logins, row.failed], `${row.client} ${row.network}`).toEqual([match.filter((r) => r.outcome === 'ok').length, match.filter((r) => r.outcome === 'refused').length]);
      }
      expect(logins.totals.logins + logins.totals.failed).toBe(signIns.length);
    });
  }

  it('storage by department (own and with sub-departments) and by person equals the people rows', async () => {
    const all = await report<StorageReport>(`kind=storage&${range(fromDay, toDay)}&departmentId=${depts.root}`);
    expect(all.departments.map((d) => [d.name, d.people, d.used, d.subtree.used])).toEqual([
      ['研发部', 1, 1000, 6000],
      ['前端组', 2, 5000, 5000],
    ]);
    expect(all.departments[1]!.path).toBe('研发部 / 前端组');
    expect(all.totals).toMatchObject({ people: 3, used: 6000 });
    expect(all.people.map((p) => p.used)).toEqual([3000, 2000, 1000]);
    const other = await report<StorageReport>(`kind=storage&${range(fromDay, toDay)}&departmentId=${depts.other}`);
    expect(other.totals).toMatchObject({ people: 3, used: 15000 });
  });

  it("growth's storage line is today's snapshot: the used bytes of the people, by department too; an emptied department drops to 0", async () => {
    const today = statsDayOf(Date.now());
    const used = async () => Number((await db.selectFrom('users').select((eb) => eb.fn.sum<number>('used_size').as('s')).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).executeTakeFirstOrThrow()).s);
    const whole = await report<GrowthReport>(`kind=growth&${range(today, today)}`);
    expect(whole.days[0]!.storedBytes).toBe(await used());
    const root = await report<GrowthReport>(`kind=growth&${range(today, today)}&departmentId=${depts.root}`);
    expect(root.days[0]!.storedBytes).toBe(6000);
    // The sweeper takes the snapshot again (a read takes it at most every 10 minutes): 前端组 emptied.
    await db.updateTable('users').set({ department_id: depts.other }).where('department_id', '=', depts.child).execute();
    await (server.app as unknown as { sweeper: { sweepOnce(): Promise<unknown> } }).sweeper.sweepOnce();
    const after = await report<GrowthReport>(`kind=growth&${range(today, today)}&departmentId=${depts.root}`);
    expect(after.days[0]!.storedBytes).toBe(1000);
  });

  it('the xlsx export has the same totals as the report, cells from users neutralised, and is on record', async () => {
    await db.updateTable('users').set({ nick_name: '=HYPERLINK("x")' }).where('id', '=', people[0]!.id).execute();
    const q = `${range(fromDay, toDay)}`;
    const growth = await report<GrowthReport>(`kind=growth&${q}`);
    const res = await admin.raw(`${API.reportExport}?kind=growth&${q}&format=xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('.xlsx');
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('增长趋势')!;
    const total = sheet.getRow(sheet.rowCount).values as unknown[];
    expect(total.slice(1, 6)).toEqual(['合计', growth.totals.uploads, growth.totals.uploadBytes, growth.totals.downloads, growth.totals.downloadBytes]);

    const storage = await admin.raw(`${API.reportExport}?kind=storage&${q}&format=csv`);
    const csv = await storage.text();
    expect(csv).toContain(`'=HYPERLINK(""x"")`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
    const exports = await db.selectFrom('action_log').select(['targets', 'detail', 'outcome']).where('tenant_id', '=', tenantId).where('action', '=', 'report.export').execute();
    expect(exports).toHaveLength(2);
    expect(exports.every((e) => e.outcome === 'ok')).toBe(true);
  });
});
