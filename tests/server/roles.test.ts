import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_NETWORK_ENV, HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { ROLES, type MenuItem, type PagePermission, type UserRoles, type UserSummary } from '../../common/api/types';
import { Client, liftPasswordGate, loggedInClient, login, MEMBER, readSmsCode, solveCaptcha, startServer, userIdOf, type TestServer } from './helpers';

let server: TestServer;
let admin: Client;
let adminId: string;
let memberId: string;

beforeAll(async () => {
  server = await startServer({ accounts: { smsResendMs: 0 } });
  await liftPasswordGate(server, 'member');
  admin = await loggedInClient(server);
  adminId = await userIdOf(server, 'admin');
  memberId = await userIdOf(server, 'member');
});
afterAll(async () => {
  await server.close();
});

describe('roles', () => {
  it('reads roles with the list of role names', async () => {
    const own = await admin.get<{ data: UserRoles }>(API.getRoles);
    expect(own.body.data).toEqual({ userId: adminId, roles: ['admin'], available: ROLES });
    const member = await loggedInClient(server, MEMBER);
    expect((await member.get<{ data: UserRoles }>(API.getRoles)).body.data.roles).toEqual(['member']);
  });

  it('promotes a member (admin menu and permissions follow at once) and never removes the last admin', async () => {
    const member = await loggedInClient(server, MEMBER);
    expect((await admin.post(API.setRoles, { userId: adminId, roles: ['member'] })).body).toEqual({
      errorCode: ERRORS.LAST_ADMIN.code,
      errorMessage: ERRORS.LAST_ADMIN.message,
    });

    const promoted = await admin.post<{ data: UserRoles }>(API.setRoles, { userId: memberId, roles: ['admin'] });
    expect(promoted.body.data.roles).toEqual(['admin']);
    const menu = await member.get<{ data: MenuItem[] }>(API.menu);
    expect(menu.body.data.map((m) => m.url)).toContain('/main/system');
    const perms = await member.get<{ data: PagePermission[] }>(API.pagePermissions);
    expect(perms.body.data.map((p) => p.code)).toContain('system:user');
    expect((await member.post(API.outerLoginSet, { userId: adminId, enabled: true })).status).toBe(200);

    // Now the first admin may step down; the promoted one is then the last admin.
    expect((await admin.post(API.setRoles, { userId: adminId, roles: ['member'] })).status).toBe(200);
    expect((await admin.post(API.accountLock, { userId: memberId })).body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
    expect((await member.post(API.setRoles, { userId: memberId, roles: ['member'] })).body).toMatchObject({
      errorCode: ERRORS.LAST_ADMIN.code,
    });
    expect((await member.post(API.setRoles, { userId: adminId, roles: ['admin'] })).status).toBe(200);
    expect((await admin.post(API.setRoles, { userId: memberId, roles: ['member'] })).status).toBe(200);
    const after = await member.get<{ data: MenuItem[] }>(API.menu);
    expect(after.body.data.map((m) => m.url)).not.toContain('/main/system');
  });

  it('refuses anything but exactly one known role', async () => {
    for (const roles of [[], ['root'], ['admin', 'member']]) {
      const res = await admin.post(API.setRoles, { userId: memberId, roles });
      expect(res.body, JSON.stringify(roles)).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    }
    expect((await admin.post(API.setRoles, { userId: 'no-such-user', roles: ['admin'] })).status).toBe(404);
  });
});

describe('user list', () => {
  it('lists the tenant with roles and both kinds of lock, filtered by keyword', async () => {
    const all = await admin.post<{ data: UserSummary[] }>(API.userSearch, {});
    expect(all.body.data.map((u) => u.website)).toEqual(['admin', 'member']);
    expect(all.body.data[1]).toEqual({
      id: memberId,
      website: 'member',
      nickName: '张三',
      phone: '13900000000',
      role: 'member',
      locked: false,
      outerLogin: true,
    });
    const byNick = await admin.post<{ data: UserSummary[] }>(API.userSearch, { keyword: '张' });
    expect(byNick.body.data.map((u) => u.website)).toEqual(['member']);
    // LIKE wildcards in the keyword are taken literally.
    expect((await admin.post<{ data: UserSummary[] }>(API.userSearch, { keyword: '%' })).body.data).toEqual([]);

    expect((await admin.post(API.accountLock, { userId: memberId })).status).toBe(200);
    const locked = await admin.post<{ data: UserSummary[] }>(API.userSearch, { keyword: 'member' });
    expect(locked.body.data[0]!.locked).toBe(true);
    expect((await admin.post(API.accountUnlock, { userId: memberId })).status).toBe(200);

    // A lock by failed logins shows too.
    const lockedByFailures = await startServer({ accounts: { loginLockAfter: 1, loginSlowAfter: 5 } });
    try {
      const otherAdmin = await loggedInClient(lockedByFailures);
      await login(lockedByFailures, new Client(lockedByFailures.baseUrl), { username: 'member', password: 'Wrong@2024' });
      const rows = await otherAdmin.post<{ data: UserSummary[] }>(API.userSearch, { keyword: 'member' });
      expect(rows.body.data[0]!.locked).toBe(true);
    } finally {
      await lockedByFailures.close();
    }
  });
});

describe('SMS login obeys the same account rules', () => {
  async function smsLogin(headers: Record<string, string> = {}) {
    const client = new Client(server.baseUrl);
    const { captchaId, answer } = await solveCaptcha(server, client);
    const since = Date.now();
    const q = new URLSearchParams({ phone: '13900000000', purpose: 'login', captchaId, captchaCode: answer });
    expect((await client.request('GET', `${API.smsSend}?${q}`, undefined, { [HEADER_PLATFORM]: 'web' })).status).toBe(200);
    const code = await readSmsCode(server, '13900000000', since);
    return client.request('POST', API.smsValidate, { phone: '13900000000', code }, headers);
  }

  it('a locked account and the public network without outer login are refused', async () => {
    expect((await admin.post(API.accountLock, { userId: memberId })).status).toBe(200);
    expect((await smsLogin()).body).toMatchObject({ errorCode: ERRORS.ACCOUNT_LOCKED.code });
    expect((await admin.post(API.accountUnlock, { userId: memberId })).status).toBe(200);

    expect((await admin.post(API.outerLoginSet, { userId: memberId, enabled: false })).status).toBe(200);
    expect((await smsLogin({ [HEADER_NETWORK_ENV]: 'public' })).body).toMatchObject({ errorCode: ERRORS.OUTER_LOGIN_REFUSED.code });
    expect((await smsLogin()).status).toBe(200);
  });
});
