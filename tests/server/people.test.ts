import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import type { OrgUserPage, UserListResponse, UserRow } from '../../common/api/org-types';
import { API } from '../../common/api/paths';
import type { FileEntry, FileListResponse, UserDetails } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { QUOTA_CHOICES } from '../../common/org/quota';
import { createGroup, expectError, mkdir, text } from './file-kit';
import { addFailingTrigger, addTenantWithUser, Client, login, loggedInClient, startServerAsAdmin, userIdOf, withDb, type TestServer } from './helpers';
import { addUser, createDepartment, INITIAL_PASSWORD, orgTree, unassignedId, userBody } from './org-kit';

let server: TestServer;
let admin: Client;
let rootId: string;

beforeAll(async () => {
  ({ server, admin } = await startServerAsAdmin());
  rootId = await unassignedId(admin);
});
afterAll(async () => {
  await server.close();
});

const list = async (body: Record<string, unknown>): Promise<UserListResponse> => {
  const res = await admin.post<{ data: UserListResponse }>(API.userList, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('adding and editing people', () => {
  it('adds an account that must change its initial password at first login', async () => {
    const rd = await createDepartment(admin, '研发');
    const row = await addUser(admin, 'Li.Lei-01', rd.id, { nickName: '李雷', phone: '13712345678', quota: QUOTA_CHOICES[0]!.bytes, outerLogin: true });
    expect(row).toMatchObject({ website: 'Li.Lei-01', nickName: '李雷', departmentId: rd.id, mustChangePassword: true, outerLogin: true, locked: false });
    const client = new Client(server.baseUrl);
    const res = await login(server, client, { username: 'li.lei-01', password: INITIAL_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.passwordChangeType).toBe(1);
    const details = await client.post<{ data: UserDetails }>(API.userDetails, {});
    expect(details.body.data).toMatchObject({ website: 'Li.Lei-01', quota: QUOTA_CHOICES[0]!.bytes, passwordChangeType: 1 });
    expectError(await client.post(API.fileList, { parentId: null, category: 1 }), ERRORS.PASSWORD_CHANGE_REQUIRED.code);
  });

  it('checks every field with the exact reason', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ website: 'a' }, ERRORS.ACCOUNT_INVALID.code],
      [{ website: '张三' }, ERRORS.ACCOUNT_INVALID.code],
      [{ website: 'has space' }, ERRORS.ACCOUNT_INVALID.code],
      [{ website: 'LI.LEI-01' }, ERRORS.ACCOUNT_TAKEN.code],
      [{ nickName: '' }, ERRORS.NICKNAME_INVALID.code],
      [{ phone: '12345' }, ERRORS.PHONE_INVALID.code],
      [{ phone: '13712345678' }, ERRORS.PHONE_IN_USE.code],
      [{ quota: 123 }, ERRORS.QUOTA_NOT_ALLOWED.code],
      [{ password: encryptPassword('short') }, ERRORS.PASSWORD_INVALID.code],
    ];
    for (const [patch, code] of cases) expectError(await admin.post(API.userAdd, userBody('valid.name', rootId, patch as never)), code);
    expectError(await admin.post(API.userAdd, userBody('valid.name', 'no-such-dept')), ERRORS.DEPT_NOT_FOUND.code, 404);
    const res = await admin.post<{ errorMessage: string }>(API.userAdd, userBody('x', rootId));
    expect(res.body.errorMessage).toBe('账号长度为2-32个字符');
    expect((await list({ keyword: 'valid.name' })).items).toEqual([]);
  });

  it('lets exactly one of concurrent adds of one account (or one phone) win', async () => {
    const names = ['Race.Name', 'race.name', 'RACE.NAME', 'race.NAME', 'Race.name'];
    const answers = await Promise.all(names.map((n, i) => admin.post(API.userAdd, userBody(n, rootId, { phone: `1360000000${i}` }))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.body).toMatchObject({ errorCode: ERRORS.ACCOUNT_TAKEN.code });
    const phones = await Promise.all([0, 1, 2, 3].map((i) => admin.post(API.userAdd, userBody(`phone.race${i}`, rootId, { phone: '13599999999' }))));
    expect(phones.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of phones.filter((x) => x.status !== 200)) expect(a.body).toMatchObject({ errorCode: ERRORS.PHONE_IN_USE.code });
  });

  it('edits profile, department, role and outer login; a new initial password ends the sessions', async () => {
    const target = await addUser(admin, 'edit.me', rootId);
    await withDb(server, (db) => db.prepare('update users set must_change_password = 0 where id = ?').run(target.id));
    const session = await loggedInClient(server, { username: 'edit.me', password: INITIAL_PASSWORD });
    const qa = await createDepartment(admin, '测试部');
    const base = { id: target.id, ...userBody('Edit.Me', qa.id, { nickName: '新昵称', phone: '13811112222', role: 'admin', outerLogin: true }) };
    const { password: _, ...noPassword } = base;
    const edited = await admin.post<{ data: UserRow }>(API.userEdit, noPassword);
    expect(edited.body.data).toMatchObject({ website: 'Edit.Me', nickName: '新昵称', departmentId: qa.id, role: 'admin', phone: '13811112222' });
    expect((await session.post(API.userDetails, {})).status).toBe(200);
    const reset = await admin.post<{ data: UserRow }>(API.userEdit, { ...base, password: encryptPassword('Reset@2024b') });
    expect(reset.body.data.mustChangePassword).toBe(true);
    expectError(await session.post(API.userDetails, {}), ERRORS.SESSION_TERMINATED.code);
    const again = await login(server, new Client(server.baseUrl), { username: 'edit.me', password: 'Reset@2024b' });
    expect(again.body.data.passwordChangeType).toBe(1);
  });

  it('keeps the last admin an admin', async () => {
    const adminId = await userIdOf(server, 'admin');
    // edit.me is an admin too now; demote it, then the last admin cannot demote itself.
    const editMe = await userIdOf(server, 'Edit.Me');
    expect((await admin.post(API.userEdit, { id: editMe, ...userBody('Edit.Me', rootId, { role: 'member', password: undefined }) })).status).toBe(200);
    const self = (await admin.get<{ data: UserRow }>(`${API.userGet}?id=${adminId}`)).body.data;
    const { password: _, ...body } = userBody('admin', self.departmentId, { role: 'member', quota: self.quota, nickName: self.nickName, phone: self.phone, outerLogin: self.outerLogin });
    expectError(await admin.post(API.userEdit, { id: adminId, ...body }), ERRORS.LAST_ADMIN.code);
    expect((await admin.get<{ data: UserRow }>(`${API.userGet}?id=${adminId}`)).body.data.role).toBe('admin');
  });
});

describe('the people list', () => {
  it('filters by department subtree, role, state and keyword, in keyset pages', async () => {
    const top = await createDepartment(admin, '销售');
    const east = await createDepartment(admin, '华东', top.id);
    const shanghai = await createDepartment(admin, '上海', east.id);
    for (let i = 0; i < 7; i++) await addUser(admin, `sales${i}`, i < 3 ? top.id : i < 5 ? east.id : shanghai.id, { nickName: `销售员${i}`, phone: `1500000000${i}` });
    const all = await list({ departmentId: top.id });
    expect(all.items.map((u) => u.website)).toEqual(['sales0', 'sales1', 'sales2', 'sales3', 'sales4', 'sales5', 'sales6']);
    expect((await list({ departmentId: top.id, includeSub: false })).items.map((u) => u.website)).toEqual(['sales0', 'sales1', 'sales2']);
    expect((await list({ departmentId: east.id })).items).toHaveLength(4);
    // Pages of 3 walk the same rows without repeats.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: UserListResponse = await list({ departmentId: top.id, pageSize: 3, cursor });
      seen.push(...page.items.map((u) => u.website));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.items.map((u) => u.website));
    expect((await list({ keyword: '销售员4' })).items.map((u) => u.website)).toEqual(['sales4']);
    expect((await list({ keyword: '15000000006' })).items.map((u) => u.website)).toEqual(['sales6']);
    expect((await list({ keyword: 'SALES1' })).items.map((u) => u.website)).toEqual(['sales1']);
    expect((await list({ keyword: '%' })).items).toEqual([]);
    expect((await list({ role: 'admin' })).items.map((u) => u.website)).toEqual(['admin']);
    // States: member must change its initial password; lock sales0 by an admin.
    expect((await admin.post(API.accountLock, { userId: all.items[0]!.id })).status).toBe(200);
    expect((await list({ departmentId: top.id, state: 'locked' })).items.map((u) => u.website)).toEqual(['sales0']);
    expect((await list({ departmentId: top.id, state: 'mustChange' })).items).toHaveLength(6);
    await withDb(server, (db) => db.prepare("update users set must_change_password = 0 where username = 'sales1'").run());
    expect((await list({ departmentId: top.id, state: 'active' })).items.map((u) => u.website)).toEqual(['sales1']);
    expectError(await admin.post(API.userList, { cursor: '!!' }), ERRORS.VALIDATION.code);
  });

  it('counts everyone the filter matches with the first page (用户管理’s 共 N 人), not with later pages', async () => {
    const top = await createDepartment(admin, '计数');
    const sub = await createDepartment(admin, '计数下级', top.id);
    for (let i = 0; i < 5; i++) await addUser(admin, `count${i}`, i < 2 ? top.id : sub.id, { nickName: `计数员${i}` });
    const first = await list({ departmentId: top.id, pageSize: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.total).toBe(5);
    expect((await list({ departmentId: top.id, pageSize: 2, cursor: first.nextCursor })).total).toBeUndefined();
    expect((await list({ departmentId: top.id, includeSub: false })).total).toBe(2);
    expect((await list({ keyword: '计数员3' })).total).toBe(1);
    expect((await list({ keyword: 'nobody-at-all' })).total).toBe(0);
    const everyone = await list({ pageSize: 1000 });
    expect(everyone.total).toBe(everyone.items.length);
    expect((await admin.post(API.accountLock, { userId: first.items[0]!.id })).status).toBe(200);
    expect((await list({ departmentId: top.id, state: 'locked' })).total).toBe(1);
  });

  it('moves people between departments in one call', async () => {
    const target = await createDepartment(admin, '调入部门');
    const ids = (await list({ keyword: 'sales' })).items.slice(0, 2).map((u) => u.id);
    const moved = await admin.post<{ data: { moved: number } }>(API.userSetDepartment, { ids, departmentId: target.id });
    expect(moved.body.data.moved).toBe(2);
    expect((await list({ departmentId: target.id })).items.map((u) => u.id).sort()).toEqual([...ids].sort());
  });
});

describe('accounts per tenant', () => {
  it('lets two tenants use one account name; the password or the tenant decides at login', async () => {
    await addTenantWithUser(server, 'Li.Lei-01', 'Other@2024');
    const other = await loggedInClient(server, { username: 'li.lei-01', password: 'Other@2024' });
    const me = await other.post<{ data: UserDetails }>(API.userDetails, {});
    const firstTenant = (await admin.post<{ data: UserDetails }>(API.userDetails, {})).body.data.tenantId;
    expect(me.body.data.tenantId).not.toBe(firstTenant);
    // Same password in both tenants: the tenant's login page must say which.
    const first = await userIdOf(server, 'Li.Lei-01');
    const hash = await withDb(server, (db) => (db.prepare("select password_hash as h from users where tenant_id <> ? and username_key = 'li.lei-01'").get(firstTenant) as { h: string }).h);
    await withDb(server, (db) => db.prepare('update users set password_hash = ? where id = ?').run(hash, first));
    const ambiguous = await login(server, new Client(server.baseUrl), { username: 'Li.Lei-01', password: 'Other@2024' });
    expect(ambiguous.body).toMatchObject({ errorCode: ERRORS.LOGIN_TENANT_REQUIRED.code });
    const { solveCaptcha, postLoginForm } = await import('./helpers');
    const c = new Client(server.baseUrl);
    const { captchaId, answer } = await solveCaptcha(server, c);
    const scoped = await postLoginForm(c, { username: 'li.lei-01', password: encryptPassword('Other@2024'), captchaId, captchaCode: answer, tenant: firstTenant });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);
    expect((await c.post<{ data: UserDetails }>(API.userDetails, {})).body.data.id).toBe(first);
  });
});

describe('deleting and handing over', () => {
  it('refuses to delete an owner of files; the hand-over moves files, recycle bin, groups and quota in one go', async () => {
    const leaver = await addUser(admin, 'leaver', rootId, { nickName: '离职者' });
    const heir = await addUser(admin, 'heir', rootId, { nickName: '接收人' });
    await withDb(server, (db) => db.prepare("update users set must_change_password = 0 where username in ('leaver', 'heir')").run());
    const l = await loggedInClient(server, { username: 'leaver', password: INITIAL_PASSWORD });
    const h = await loggedInClient(server, { username: 'heir', password: INITIAL_PASSWORD });
    const folder = await mkdir(l, '项目');
    await text(l, 'a.txt', 'aaaa', folder.id);
    await text(l, 'top.txt', '12345678');
    const gone = await text(l, 'gone.txt', 'xyz');
    expect((await l.post(API.removeFiles, { ids: [gone.id] })).status).toBe(200);
    const group = await createGroup(l, '离职者的群组');
    await text(l, 'g.txt', 'group', null, { spaceId: group.id });
    await mkdir(h, '离职者（leaver）的文件');
    const before = await withDb(server, (db) => db.prepare("select username, quota, used_size from users where username in ('leaver', 'heir') order by username").all() as Array<{ username: string; quota: number; used_size: number }>);
    const used = before.find((u) => u.username === 'leaver')!.used_size;
    expect(used).toBeGreaterThan(0);

    const refused = await admin.post<{ errorMessage: string }>(API.userDelete, { id: leaver.id });
    expectError(refused, ERRORS.USER_HAS_FILES.code);
    expect(refused.body.errorMessage).toMatch(/仍有\d+个文件和文件夹/);

    const moved = await admin.post<{ data: { entries: number; bytes: number; folderName: string } }>(API.userTransferFiles, { fromId: leaver.id, toId: heir.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ bytes: used, folderName: '离职者（leaver）的文件 (2)' });
    const after = await withDb(server, (db) => db.prepare("select username, quota, used_size from users where username in ('leaver', 'heir') order by username").all() as Array<{ username: string; quota: number; used_size: number }>);
    const heirBefore = before.find((u) => u.username === 'heir')!;
    expect(after).toEqual([
      { username: 'heir', quota: heirBefore.quota + used, used_size: heirBefore.used_size + used },
      { username: 'leaver', quota: before.find((u) => u.username === 'leaver')!.quota, used_size: 0 },
    ]);
    const root = await h.post<{ data: FileListResponse }>(API.fileList, { parentId: null, category: 1 });
    const handed = root.body.data.items.find((f: FileEntry) => f.name === '离职者（leaver）的文件 (2)')!;
    const inside = await h.post<{ data: FileListResponse }>(API.fileList, { parentId: handed.id, category: 1 });
    expect(inside.body.data.items.map((f) => f.name).sort()).toEqual(['top.txt', '项目']);
    const bin = await h.post<{ data: { items: FileEntry[] } }>(API.recycleList, {});
    expect(bin.body.data.items.map((f) => f.name)).toEqual(['gone.txt']);
    const members = await h.post<{ data: { members: Array<{ username: string; role: string }> } }>(API.groupMemberList, { id: group.id });
    expect(members.body.data.members.find((m) => m.username === 'heir')?.role).toBe('owner');

    expect((await admin.post(API.userDelete, { id: leaver.id })).status).toBe(200);
    expectError(await l.post(API.userDetails, {}), ERRORS.SESSION_TERMINATED.code);
    expect((await login(server, new Client(server.baseUrl), { username: 'leaver', password: INITIAL_PASSWORD })).body).toMatchObject({ errorCode: ERRORS.LOGIN_FAILED.code });
    expectError(await admin.get(`${API.userGet}?id=${leaver.id}`), ERRORS.USER_NOT_FOUND.code, 404);
    // The name is free again.
    expect((await admin.post(API.userAdd, userBody('leaver', rootId))).status).toBe(200);
  });

  it('rolls a hand-over back whole when any step fails', async () => {
    const a = await addUser(admin, 'roll.a', rootId);
    const b = await addUser(admin, 'roll.b', rootId);
    await withDb(server, (db) => db.prepare("update users set must_change_password = 0 where username = 'roll.a'").run());
    const ca = await loggedInClient(server, { username: 'roll.a', password: INITIAL_PASSWORD });
    await text(ca, 'keep.txt', 'keep');
    // A trigger makes the quota step fail after the files moved: nothing may stay moved.
    const dropTrigger = await addFailingTrigger(server, 'fail_quota', 'before update of quota', 'users', `new.id = '${b.id}'`);
    expect((await admin.post(API.userTransferFiles, { fromId: a.id, toId: b.id })).status).toBe(500);
    await dropTrigger();
    const owners = await withDb(server, (db) => db.prepare("select owner_id from files where name = 'keep.txt'").all() as Array<{ owner_id: string }>);
    expect(owners).toEqual([{ owner_id: a.id }]);
    expect((await withDb(server, (db) => db.prepare('select count(*) as n from files where owner_id = ?').get(b.id))) as { n: number }).toEqual({ n: 0 });
  });

  it('refuses deleting oneself and the last admin', async () => {
    const adminId = await userIdOf(server, 'admin');
    expectError(await admin.post(API.userDelete, { id: adminId }), ERRORS.CANNOT_DELETE_SELF.code);
    expectError(await admin.post(API.userTransferFiles, { fromId: adminId, toId: adminId }), ERRORS.HAND_OVER_SAME_USER.code);
  });
});

describe('the address list', () => {
  it('masks phones by the tenant rule, never the caller own, and lists department and group members', async () => {
    const tree = await orgTree(admin);
    expect(tree.phoneMask).toBe('middle');
    const page = await admin.get<{ data: OrgUserPage }>(`${API.orgUserList}?keyword=sales6`);
    expect(page.body.data.items.map((u) => u.phone)).toEqual(['150****0006']);
    expect((await admin.post(API.orgSettingsUpdate, { phoneMask: 'tail' })).status).toBe(200);
    const tail = await admin.get<{ data: OrgUserPage }>(`${API.orgUserList}?keyword=sales6`);
    expect(tail.body.data.items.map((u) => u.phone)).toEqual(['*******0006']);
    const me = await admin.get<{ data: OrgUserPage }>(`${API.orgUserList}?keyword=admin`);
    expect(me.body.data.items.find((u) => u.website === 'admin')!.phone).toBe('13800000000');
    expect((await admin.post(API.orgSettingsUpdate, { phoneMask: 'hidden' })).status).toBe(200);
    expect((await admin.get<{ data: OrgUserPage }>(`${API.orgUserList}?keyword=sales6`)).body.data.items[0]!.phone).toBe('');
    await admin.post(API.orgSettingsUpdate, { phoneMask: 'middle' });

    const sales = tree.departments.find((d) => d.name === '销售')!;
    const direct = await admin.get<{ data: OrgUserPage }>(`${API.orgGroupUserList}?departmentId=${sales.id}`);
    expect(direct.body.data.items.every((u) => u.departmentId === sales.id)).toBe(true);
    const group = await createGroup(admin, '通讯录群组');
    const members = await admin.get<{ data: OrgUserPage }>(`${API.orgGroupUserList}?groupId=${group.id}`);
    expect(members.body.data.items.map((u) => [u.website, u.groupRole])).toEqual([['admin', 'owner']]);
    expectError(await admin.get(`${API.orgGroupUserList}`), ERRORS.VALIDATION.code);
  });
});
