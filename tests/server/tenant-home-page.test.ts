import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { TenantInfo } from '../../common/api/tenant';
import { oneRowOf } from './action-log-kit';
import { expectError } from './file-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, login, loggedInClient, MEMBER, startServer, type TestServer } from './helpers';

/**
 * The tenant's home page (spec §2 "/ redirects to the configured home page", issue 38: homeUrl comes
 * from the tenant's settings, not a constant): set in 系统配置 through tenant/update, answered by
 * `GET /api/menu/get/homeUrl` and the login result to every member of that tenant from the next call,
 * on the action log from → to; only pages every member's menu holds are accepted, and a page whose
 * module the tenant turned off falls back to the default for everyone.
 */
let server: TestServer;
let admin: Client;
let member: Client;

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
});
afterAll(async () => {
  await server.close();
});

const homeOf = async (client: Client) => (await client.get<{ data: string }>(API.homeUrl)).body.data;
const setHome = (homeUrl: string) => admin.post<{ data: TenantInfo }>(API.tenantUpdate, { homeUrl });

describe('the tenant home page', () => {
  it('answers the default until set; once set, homeUrl, the login result and tenant/info give it; the change is on the action log', async () => {
    expect(await homeOf(member)).toBe('/main/file/personal');
    const row = await oneRowOf(server, async () => {
      const res = await setHome('/main/group');
      expect(res.status).toBe(200);
      expect(res.body.data.homeUrl).toBe('/main/group');
    });
    expect([row.action, row.outcome]).toEqual(['tenant.update', 'ok']);
    expect(row.parsedDetail).toEqual({ homeUrl: { from: '/main/file/personal', to: '/main/group' } });
    expect(await homeOf(member)).toBe('/main/group');
    expect(await homeOf(admin)).toBe('/main/group');
    const fresh = new Client(server.baseUrl);
    expect((await login(server, fresh, MEMBER)).body.data.homeUrl).toBe('/main/group');
    expect((await member.get<{ data: TenantInfo }>(API.tenantInfo)).body.data.homeUrl).toBe('/main/group');
  });

  it('refuses a page not every member may open, changing nothing', async () => {
    for (const bad of ['/main/system/desk', '/main/file/recycle?x=1', 'https://example.com/', '//evil', '']) {
      expectError(await setHome(bad), ERRORS.TENANT_HOME_PAGE_INVALID.code, 400);
    }
    expect(await homeOf(member)).toBe('/main/group');
  });

  it('falls back to the default while the page\'s module is off', async () => {
    expect((await admin.post(API.dictItemUpdate, { group: 'module-switch', code: 'group', enabled: false })).status).toBe(200);
    expect(await homeOf(member)).toBe('/main/file/personal');
    expect((await login(server, new Client(server.baseUrl), MEMBER)).body.data.homeUrl).toBe('/main/file/personal');
    expect((await admin.post(API.dictItemUpdate, { group: 'module-switch', code: 'group', enabled: true })).status).toBe(200);
    expect(await homeOf(member)).toBe('/main/group');
  });

  it('is each tenant\'s own; setting the default clears it', async () => {
    await addTenantWithUser(server, 'home-other', 'Other@2024');
    const other = await loggedInClient(server, { username: 'home-other', password: 'Other@2024' });
    expect(await homeOf(other)).toBe('/main/file/personal');
    expect((await setHome('/main/file/personal')).body.data.homeUrl).toBe('/main/file/personal');
    expect(await homeOf(member)).toBe('/main/file/personal');
  });
});
