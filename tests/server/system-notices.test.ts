import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import type { ManagedNotice, ManagedNoticePage, NoticePopup, NoticeReadersPage, SystemNotice, SystemNoticePage, SystemUnreadCount } from '../../common/api/notices';
import { API } from '../../common/api/paths';
import { rowsOf } from './action-log-kit';
import type { Client} from './helpers';
import { addTenantWithUser, loggedInClient, startServerWithMember, userIdOf, withDb, type TestServer } from './helpers';
import { createDepartment, addUser as addOrgUser, INITIAL_PASSWORD } from './org-kit';
import { counts, noticeRequest, saveNotice } from './notice-kit';

/**
 * System notices: audience rules matched at read time (whole tenant, departments with everything
 * below them, people), scheduled publishing, pinning, withdrawal, sanitised content, the platform's
 * notices for every tenant, the pop-up shown once, and the two counts that make the system count.
 */
let server: TestServer;
let admin: Client;
let member: Client;
let sales: Client;
let east: Client;
let foreign: Client;
let dept: { sales: string; east: string };

async function feed(client: Client, body: Record<string, unknown> = {}): Promise<SystemNoticePage> {
  const res = await client.post<{ data: SystemNoticePage }>(API.sysMsgList, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const titles = async (client: Client) => (await feed(client, { pageSize: 100 })).items.map((n) => n.title);

async function clearNotices(): Promise<void> {
  await withDb(server, (db) => {
    db.prepare('delete from system_notices').run();
    db.prepare('delete from system_notice_targets').run();
    db.prepare('delete from system_notice_reads').run();
  });
}

async function loginAs(website: string): Promise<Client> {
  await withDb(server, (db) => db.prepare('update users set must_change_password = 0 where username = ?').run(website));
  return loggedInClient(server, { username: website, password: INITIAL_PASSWORD });
}

beforeAll(async () => {
  ({ server, admin, member } = await startServerWithMember());
  const salesDept = await createDepartment(admin, '销售部');
  const eastDept = await createDepartment(admin, '华东区', salesDept.id);
  dept = { sales: salesDept.id, east: eastDept.id };
  await addOrgUser(admin, 'sales.li', salesDept.id);
  await addOrgUser(admin, 'east.wang', eastDept.id);
  sales = await loginAs('sales.li');
  east = await loginAs('east.wang');
  await addTenantWithUser(server, 'foreigner', 'Foreign@2024');
  foreign = await loggedInClient(server, { username: 'foreigner', password: 'Foreign@2024' });
});
afterAll(async () => {
  await server.close();
});

describe('audience', () => {
  it('whole tenant, a department with its sub-departments, one person: exactly those readers, counted unread until read', async () => {
    await clearNotices();
    await saveNotice(admin, { title: '全员' });
    await saveNotice(admin, { title: '销售', audience: { all: false, departmentIds: [dept.sales], userIds: [] } });
    await saveNotice(admin, { title: '华东', audience: { all: false, departmentIds: [dept.east], userIds: [] } });
    await saveNotice(admin, { title: '点名', audience: { all: false, departmentIds: [], userIds: [await userIdOf(server, 'member')] } });
    expect((await titles(member)).sort()).toEqual(['全员', '点名']);
    expect((await titles(sales)).sort()).toEqual(['全员', '销售']);
    expect((await titles(east)).sort()).toEqual(['全员', '华东', '销售']);
    expect(await titles(admin)).toEqual(['全员']);
    expect(await titles(foreign)).toEqual([]);
    expect((await counts(east)).system).toBe(3);
    expect((await counts(east)).systemParts).toEqual({ tenantNotices: 3, platformNotices: 0 });
    const num = await east.post<{ data: SystemUnreadCount }>(API.sysMsgUnreadNum, {});
    expect(num.body.data).toEqual({ count: 3, tenantNotices: 3, platformNotices: 0 });

    // Reading one: the count drops for that reader only; a notice not addressed to them is ignored.
    const list = await feed(east);
    const one = list.items.find((n) => n.title === '华东')!;
    const notMine = (await feed(member)).items.find((n) => n.title === '点名')!;
    const after = await east.post<{ data: SystemUnreadCount }>(API.sysMsgMarkRead, { ids: [one.id, notMine.id] });
    expect(after.body.data.count).toBe(2);
    expect((await counts(sales)).system).toBe(2);
    expect((await feed(east, { read: false })).items.map((n) => n.title).sort()).toEqual(['全员', '销售']);
    expect((await feed(east, { read: true })).items.map((n) => n.title)).toEqual(['华东']);
    expect((await east.post<{ data: SystemUnreadCount }>(API.sysMsgMarkAllRead, {})).body.data.count).toBe(0);
    expect((await counts(east)).system).toBe(0);
    expect((await counts(member)).system).toBe(2);
    // A reader outside the audience cannot open it.
    const get = await member.get(`${API.sysMsgGet}?id=${one.id}`);
    expect(get.status).toBe(404);
    expect(get.body).toMatchObject({ errorCode: ERRORS.NOTICE_NOT_FOUND.code });
  });

  it('moving a person into a department brings them its notices (rules are matched when they read)', async () => {
    await clearNotices();
    await saveNotice(admin, { title: '华东专属', audience: { all: false, departmentIds: [dept.east], userIds: [] } });
    expect(await titles(member)).toEqual([]);
    expect((await admin.post(API.userSetDepartment, { ids: [await userIdOf(server, 'member')], departmentId: dept.east })).status).toBe(200);
    expect(await titles(member)).toEqual(['华东专属']);
  });
});

describe('publishing', () => {
  it('scheduled: nobody sees it before its time, everyone addressed after', async () => {
    await clearNotices();
    const at = Date.now() + 1500;
    const n = await saveNotice(admin, { title: '定时', publish: 'at', publishAt: at });
    expect(n.state).toBe('scheduled');
    expect(await titles(member)).toEqual([]);
    expect((await counts(member)).system).toBe(0);
    await new Promise((r) => setTimeout(r, at - Date.now() + 50));
    expect(await titles(member)).toEqual(['定时']);
    const managed = await admin.get<{ data: ManagedNotice }>(`${API.noticeManageGet}?id=${n.id}`);
    expect(managed.body.data.state).toBe('published');
  });

  it('drafts stay hidden; pinned come first; withdrawn and deleted ones leave the lists and the counts', async () => {
    await clearNotices();
    const draft = await saveNotice(admin, { title: '草稿', publish: 'draft' });
    expect(draft.state).toBe('draft');
    const first = await saveNotice(admin, { title: '第一' });
    await new Promise((r) => setTimeout(r, 5));
    const second = await saveNotice(admin, { title: '第二' });
    expect(await titles(member)).toEqual(['第二', '第一']);
    await admin.post(API.noticeManagePin, { id: first.id, pinned: true });
    expect(await titles(member)).toEqual(['第一', '第二']);
    expect((await counts(member)).system).toBe(2);
    const withdrawn = await admin.post<{ data: ManagedNotice }>(API.noticeManageWithdraw, { id: second.id });
    expect(withdrawn.body.data.state).toBe('withdrawn');
    expect(await titles(member)).toEqual(['第一']);
    expect((await counts(member)).system).toBe(1);
    expect((await admin.post(API.noticeManageDelete, { id: first.id })).status).toBe(200);
    expect(await titles(member)).toEqual([]);
    expect((await counts(member)).system).toBe(0);
    // States that do not allow the step say so.
    expect((await admin.post(API.noticeManageWithdraw, { id: draft.id })).body).toMatchObject({ errorCode: ERRORS.NOTICE_STATE_INVALID.code });
    expect((await admin.post(API.noticeManageSave, { ...noticeRequest({ publish: 'draft' }), id: second.id })).body).toMatchObject({ errorCode: ERRORS.NOTICE_STATE_INVALID.code });
    // Publishing the draft; the admin list shows every state with its readers.
    await admin.post(API.noticeManageSave, { ...noticeRequest({ title: '草稿发布' }), id: draft.id });
    await member.post(API.sysMsgMarkAllRead, {});
    const page = await admin.post<{ data: ManagedNoticePage }>(API.noticeManageList, {});
    expect(page.body.data.items.map((n) => [n.title, n.state, n.readCount])).toEqual([
      ['草稿发布', 'published', 1],
      ['第二', 'withdrawn', 0],
    ]);
  });

  it('bad input gets coded errors and saves nothing', async () => {
    await clearNotices();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ title: '  ' }, ERRORS.NOTICE_TITLE_INVALID.code],
      [{ title: 'x'.repeat(101) }, ERRORS.NOTICE_TITLE_INVALID.code],
      [{ content: '<p>  </p><script>alert(1)</script>' }, ERRORS.NOTICE_CONTENT_INVALID.code],
      [{ audience: { all: false, departmentIds: [], userIds: [] } }, ERRORS.NOTICE_AUDIENCE_INVALID.code],
      [{ publish: 'at', publishAt: Date.now() - 1000 }, ERRORS.NOTICE_PUBLISH_AT_INVALID.code],
      [{ publish: 'at' }, ERRORS.NOTICE_PUBLISH_AT_INVALID.code],
      [{ audience: { all: false, departmentIds: ['no-such-department'], userIds: [] } }, ERRORS.DEPT_NOT_FOUND.code],
    ];
    for (const [extra, code] of bad) {
      const res = await member.post(API.noticeManageSave, noticeRequest(extra as never));
      expect(res.body, 'members may not write notices').toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
      const asAdmin = await admin.post(API.noticeManageSave, noticeRequest(extra as never));
      expect(asAdmin.body, JSON.stringify(extra)).toMatchObject({ errorCode: code });
    }
    // The first tenant's admin is the platform admin: a second tenant's admin may not write platform notices.
    const otherAdmin = foreign;
    await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'foreigner'").run());
    expect((await otherAdmin.post(API.noticeManageSave, noticeRequest({ platform: true }))).body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
    await withDb(server, (db) => db.prepare("update users set role = 'member' where username = 'foreigner'").run());
    expect((await admin.post<{ data: ManagedNoticePage }>(API.noticeManageList, {})).body.data.items).toEqual([]);
  });

  it('content is sanitised on the server: scripts, handlers and foreign schemes go; links open safely', async () => {
    await clearNotices();
    const saved = await saveNotice(admin, {
      content:
        '<p onclick="steal()">你好<script>alert(1)</script><img src=x onerror=alert(2)><a href="javascript:alert(3)">坏</a> <a href="https://example.com/a" target="_self">好</a></p><iframe src="https://evil"></iframe><style>p{}</style><h2>标题</h2><ul><li>一</li></ul>',
    });
    expect(saved.content).toBe('<p>你好<a target="_blank" rel="noopener noreferrer">坏</a> <a href="https://example.com/a" target="_blank" rel="noopener noreferrer">好</a></p><h2>标题</h2><ul><li>一</li></ul>');
    expect(saved.summary).toBe('你好坏 好 标题 一');
    const [read] = (await feed(member)).items;
    expect(read!.content).toBe(saved.content);
  });
});

describe('阅读情况 (who of the audience read a notice)', () => {
  async function readers(client: Client, body: Record<string, unknown>): Promise<NoticeReadersPage> {
    const res = await client.post<{ data: NoticeReadersPage }>(API.noticeManageReaders, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }
  const accounts = (page: NoticeReadersPage) => page.items.map((r) => r.website);

  it('lists the audience (a department with its sub-departments, a person) with who read it, and counts 已读 / 应读', async () => {
    await clearNotices();
    const n = await saveNotice(admin, { title: '销售与点名', audience: { all: false, departmentIds: [dept.sales], userIds: [await userIdOf(server, 'member')] } });
    expect([n.readCount, n.audienceSize]).toEqual([0, 3]);
    const before = await readers(admin, { id: n.id });
    expect(accounts(before)).toEqual(['east.wang', 'member', 'sales.li']);
    expect([before.audience, before.read, before.nextCursor]).toEqual([3, 0, null]);
    expect(before.items.every((r) => r.readAt === null)).toBe(true);
    expect(before.items.find((r) => r.website === 'east.wang')).toMatchObject({ nickName: '昵称east.wang', departmentId: dept.east });

    const t0 = Date.now();
    await east.post(API.sysMsgMarkRead, { ids: [n.id] });
    await admin.post(API.sysMsgMarkRead, { ids: [n.id] }); // not addressed to the admin: no marker, not counted
    const read = await readers(admin, { id: n.id, read: true });
    expect(accounts(read)).toEqual(['east.wang']);
    expect(read.items[0]!.readAt).toBeGreaterThanOrEqual(t0);
    expect(accounts(await readers(admin, { id: n.id, read: false }))).toEqual(['member', 'sales.li']);
    expect([read.audience, read.read]).toEqual([1 + 2, 1]);
    const listed = (await admin.post<{ data: ManagedNoticePage }>(API.noticeManageList, {})).body.data.items.find((x) => x.id === n.id)!;
    expect([listed.readCount, listed.audienceSize]).toEqual([1, 3]);

    // Keyset pages by account walk the same people once.
    const first = await readers(admin, { id: n.id, pageSize: 2 });
    expect(accounts(first)).toEqual(['east.wang', 'member']);
    expect(accounts(await readers(admin, { id: n.id, pageSize: 2, cursor: first.nextCursor }))).toEqual(['sales.li']);
    expect((await admin.post(API.noticeManageReaders, { id: n.id, cursor: '!!' })).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
  });

  it('a notice for everyone counts every live account of the tenant; a platform notice the caller’s tenant only', async () => {
    await clearNotices();
    const everyone = await saveNotice(admin, { title: '全员阅读' });
    const people = (await admin.post<{ data: { items: unknown[] } }>(API.userList, { pageSize: 1000 })).body.data.items.length;
    expect(everyone.audienceSize).toBe(people);
    expect((await readers(admin, { id: everyone.id, pageSize: 100 })).items).toHaveLength(people);
    const platform = await saveNotice(admin, { title: '平台阅读', platform: true });
    await foreign.post(API.sysMsgMarkRead, { ids: [platform.id] }); // another tenant's reader: not in this list
    const page = await readers(admin, { id: platform.id, pageSize: 100 });
    expect([page.audience, page.read]).toEqual([people, 0]);
    expect(accounts(page)).not.toContain('foreigner');
  });

  it('another tenant’s notice is not found; members may not ask', async () => {
    await clearNotices();
    const n = await saveNotice(admin, { title: '本企业阅读' });
    await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'foreigner'").run());
    try {
      expect((await foreign.post(API.noticeManageReaders, { id: n.id })).body).toMatchObject({ errorCode: ERRORS.NOTICE_NOT_FOUND.code });
    } finally {
      await withDb(server, (db) => db.prepare("update users set role = 'member' where username = 'foreigner'").run());
    }
    expect((await member.post(API.noticeManageReaders, { id: n.id })).body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
  });
});

describe('the platform, the pop-up and the action log', () => {
  it("a platform notice reaches every tenant and is counted apart from the tenant's own", async () => {
    await clearNotices();
    const platform = await saveNotice(admin, { title: '平台维护', platform: true });
    expect(platform.platform).toBe(true);
    await saveNotice(admin, { title: '本企业' });
    expect(await titles(foreign)).toEqual(['平台维护']);
    expect((await counts(foreign)).systemParts).toEqual({ tenantNotices: 0, platformNotices: 1 });
    expect((await counts(member))).toMatchObject({ system: 2, systemParts: { tenantNotices: 1, platformNotices: 1 } });
    // Platform notices go to everyone: no departments or people.
    const targeted = await admin.post(API.noticeManageSave, noticeRequest({ platform: true, audience: { all: false, departmentIds: [dept.sales], userIds: [] } }));
    expect(targeted.body).toMatchObject({ errorCode: ERRORS.NOTICE_AUDIENCE_INVALID.code });
  });

  it('an important notice pops up once: not again after it was shown, nor when it was read before', async () => {
    await clearNotices();
    const important = await saveNotice(admin, { title: '重要', important: true });
    await saveNotice(admin, { title: '普通' });
    const first = await member.get<{ data: NoticePopup }>(API.sysMsgPopup);
    expect(first.body.data.items.map((n) => n.title)).toEqual(['重要']);
    expect((await member.post(API.sysMsgPopupAck, { ids: [important.id] })).status).toBe(200);
    expect((await member.get<{ data: NoticePopup }>(API.sysMsgPopup)).body.data.items).toEqual([]);
    // Shown means read.
    expect((await member.get<{ data: SystemNotice }>(`${API.sysMsgGet}?id=${important.id}`)).body.data.read).toBe(true);
    await sales.post(API.sysMsgMarkRead, { ids: [important.id] });
    expect((await sales.get<{ data: NoticePopup }>(API.sysMsgPopup)).body.data.items).toEqual([]);
    expect((await east.get<{ data: NoticePopup }>(API.sysMsgPopup)).body.data.items.map((n) => n.title)).toEqual(['重要']);
  });

  it('each authoring step is one action log record; reading is none', async () => {
    await clearNotices();
    const rows = await rowsOf(server, async () => {
      const n = await saveNotice(admin, { title: '审计', publish: 'draft' });
      await admin.post(API.noticeManageSave, { ...noticeRequest({ title: '审计' }), id: n.id });
      await admin.post(API.noticeManagePin, { id: n.id, pinned: true });
      await member.post(API.sysMsgMarkAllRead, {});
      await member.post(API.sysMsgList, {});
      await admin.post(API.noticeManageWithdraw, { id: n.id });
      await admin.post(API.noticeManageWithdraw, { id: n.id });
      await admin.post(API.noticeManageDelete, { id: n.id });
    });
    expect(rows.map((r) => [r.action, r.outcome, r.error_code, r.parsedTargets.map((t) => `${t.type}:${t.name}`)])).toEqual([
      ['notice.create', 'ok', null, ['notice:审计']],
      ['notice.publish', 'ok', null, ['notice:审计']],
      ['notice.pin', 'ok', null, ['notice:审计']],
      ['notice.withdraw', 'ok', null, ['notice:审计']],
      ['notice.withdraw', 'refused', ERRORS.NOTICE_STATE_INVALID.code, ['notice:审计']],
      ['notice.delete', 'ok', null, ['notice:审计']],
    ]);
  });
});
