import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionLogListResponse } from '../../common/api/action-log';
import { DICT_GROUP } from '../../common/api/dictionaries';
import { ERRORS } from '../../common/api/errors';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { API } from '../../common/api/paths';
import type { DictGroup, DictItem, MenuItem, StaticData, SystemConfig, TenantAlias, TenantInfo, TenantListResponse, TenantSwitches } from '../../common/api/types';
import { QUOTA_CHOICES } from '../../common/org/quota';
import { oneRowOf } from './action-log-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, loggedInClient, login, MEMBER, startServer, withDb, type Answer, type TestServer } from './helpers';

let server: TestServer;
let admin: Client;
let member: Client;
let other: Client;
let tenantId: string;
let otherTenantId: string;

const platform = { [HEADER_PLATFORM]: 'web' };
const formPost = (client: Client, path: string, body: string) =>
  client.raw(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: TenantSwitches; errorCode?: string } }));
const png = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 4, background: { r: 200, g: 30, b: 60, alpha: 1 } } }).png().toBuffer();
const jpeg = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: 20, g: 90, b: 160 } } }).jpeg().toBuffer();
const tenantOf = (username: string) =>
  withDb(server, (db) => (db.prepare('select tenant_id from users where username = ?').get(username) as { tenant_id: string }).tenant_id);

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server, ADMIN);
  await liftPasswordGate(server, MEMBER.username);
  member = await loggedInClient(server, MEMBER);
  await addTenantWithUser(server, 'other-admin', 'Other@2024');
  await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'other-admin'").run());
  other = await loggedInClient(server, { username: 'other-admin', password: 'Other@2024' });
  tenantId = await tenantOf('admin');
  otherTenantId = await tenantOf('other-admin');
});
afterAll(async () => {
  await server.close();
});

describe('tenant profile', () => {
  it('the seeded admin is the platform admin: /api/tenant/list shows every tenant to it, one to another tenant admin', async () => {
    const all = await admin.get<{ data: TenantListResponse }>(API.tenantList);
    expect(all.body.data.platformAdmin).toBe(true);
    expect(all.body.data.items.map((t) => [t.tenantId, t.own])).toEqual([
      [tenantId, true],
      [otherTenantId, false],
    ]);
    expect(all.body.data.items[0]).toMatchObject({ brandName: '演示企业云盘', name: '演示企业', userCount: 2 });
    const own = await other.get<{ data: TenantListResponse }>(API.tenantList);
    expect(own.body.data).toEqual({ platformAdmin: false, items: [expect.objectContaining({ tenantId: otherTenantId, own: true, userCount: 1 })] });
  });

  it('info: any user of the tenant; another tenant only for the platform admin', async () => {
    const info = await member.get<{ data: TenantInfo }>(API.tenantInfo);
    expect(info.body.data).toMatchObject({ tenantId, brandName: '演示企业云盘', alias: '', loginBackground: '', switches: { gesture: false, keyCreate: true, syncTime: 30 } });
    expect((await admin.get<{ data: TenantInfo }>(`${API.tenantInfo}?tenantId=${otherTenantId}`)).body.data.tenantId).toBe(otherTenantId);
    expect((await other.get(`${API.tenantInfo}?tenantId=${tenantId}`)).body).toMatchObject({ errorCode: ERRORS.TENANT_NOT_FOUND.code });
  });

  it('update: brand and alias (checked, unique across tenants in any case), one action log row with what changed', async () => {
    const row = await oneRowOf(server, () => admin.post(API.tenantUpdate, { brandName: ' 新品牌 ', alias: 'Demo-Co' }));
    expect(row).toMatchObject({ action: 'tenant.update', outcome: 'ok' });
    expect(row.parsedDetail).toEqual({ brandName: { from: '演示企业云盘', to: '新品牌' }, alias: { from: '', to: 'Demo-Co' } });
    const alias = await new Client(server.baseUrl).get<{ data: TenantAlias }>(`${API.tenantAlias}?id=demo-co`);
    expect(alias.body.data).toMatchObject({ tenantId, alias: 'Demo-Co', brandName: '新品牌' });
    expect((await other.post(API.tenantUpdate, { alias: 'DEMO-CO' })).body).toMatchObject({ errorCode: ERRORS.TENANT_ALIAS_TAKEN.code });
    expect((await other.post(API.tenantUpdate, { alias: 'a b' })).body).toMatchObject({ errorCode: ERRORS.TENANT_ALIAS_INVALID.code });
    expect((await other.post(API.tenantUpdate, { brandName: '   ' })).body).toMatchObject({ errorCode: ERRORS.TENANT_NAME_INVALID.code });
    // The platform admin changes another tenant by its id.
    expect((await admin.post<{ data: TenantInfo }>(API.tenantUpdate, { tenantId: otherTenantId, brandName: '另一家' })).body.data).toMatchObject({ tenantId: otherTenantId, brandName: '另一家' });
    const config = await new Client(server.baseUrl).get<{ data: SystemConfig }>(API.systemConfig);
    expect(config.body.data.brandName).toBe('新品牌');
  });

  it('pictures: judged by their bytes, size-capped, re-encoded as WebP within their box; a bad one changes nothing', async () => {
    const big = await png(1200, 900);
    const res = await admin.post<{ data: TenantInfo }>(API.tenantUpdate, { logo: `data:image/png;base64,${big.toString('base64')}`, loginBackground: (await jpeg(3000, 2000)).toString('base64') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const logo = await new Client(server.baseUrl).raw(res.body.data.logo);
    expect(logo.headers.get('content-type')).toBe('image/webp');
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    const logoMeta = await sharp(Buffer.from(await logo.arrayBuffer())).metadata();
    expect([logoMeta.format, logoMeta.width, logoMeta.height]).toEqual(['webp', 512, 384]);
    const bg = await new Client(server.baseUrl).raw(res.body.data.loginBackground);
    const bgMeta = await sharp(Buffer.from(await bg.arrayBuffer())).metadata();
    expect([bg.headers.get('content-type'), bgMeta.width, bgMeta.height]).toEqual(['image/webp', 2400, 1600]);
    // The login page finds it without a session, by alias too.
    const alias = await new Client(server.baseUrl).get<{ data: TenantAlias }>(`${API.tenantAlias}?id=Demo-Co`);
    expect(alias.body.data.loginBackground).toBe(res.body.data.loginBackground);
    expect((await new Client(server.baseUrl).get<{ data: SystemConfig }>(API.systemConfig)).body.data.loginBackground).toBe(res.body.data.loginBackground);

    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusals: Array<[unknown, string]> = [
      [{ brandName: '不应生效', logo: svg.toString('base64') }, ERRORS.TENANT_IMAGE_INVALID.code],
      [{ brandName: '不应生效', logo: `data:image/png;base64,${Buffer.from('not a picture at all').toString('base64')}` }, ERRORS.TENANT_IMAGE_INVALID.code],
      [{ brandName: '不应生效', logo: '!!!' }, ERRORS.TENANT_IMAGE_INVALID.code],
      [{ brandName: '不应生效', logo: Buffer.concat([big, Buffer.alloc(2 * 1024 * 1024)]).toString('base64') }, ERRORS.TENANT_IMAGE_TOO_LARGE.code],
      // A truncated PNG: the right signature, then nothing decodable.
      [{ brandName: '不应生效', loginBackground: big.subarray(0, 200).toString('base64') }, ERRORS.TENANT_IMAGE_INVALID.code],
    ];
    for (const [body, code] of refusals) {
      const refused = await oneRowOf(server, () => admin.post(API.tenantUpdate, body));
      expect(refused, code).toMatchObject({ action: 'tenant.update', outcome: 'refused', error_code: code });
    }
    const after = await admin.get<{ data: TenantInfo }>(API.tenantInfo);
    expect(after.body.data).toMatchObject({ brandName: '新品牌', logo: res.body.data.logo, loginBackground: res.body.data.loginBackground });
  });

  it('resetLogo and BGImage/reset: GETs that need the platform header; each one action log row', async () => {
    expect((await admin.get(API.tenantResetLogo)).body).toMatchObject({ errorCode: ERRORS.PLATFORM_HEADER_REQUIRED.code });
    const logo = await oneRowOf(server, () => admin.request<{ data: TenantInfo }>('GET', API.tenantResetLogo, undefined, platform));
    expect(logo).toMatchObject({ action: 'tenant.resetLogo', outcome: 'ok' });
    const info = (await admin.get<{ data: TenantInfo }>(API.tenantInfo)).body.data;
    const served = await new Client(server.baseUrl).raw(info.logo);
    expect(served.headers.get('content-type')).toContain('image/svg+xml');
    expect(await served.text()).toContain('<svg');
    expect((await oneRowOf(server, () => admin.request('GET', API.tenantResetBackground, undefined, platform))).action).toBe('tenant.resetBackground');
    expect((await admin.get<{ data: TenantInfo }>(API.tenantInfo)).body.data.loginBackground).toBe('');
    expect((await new Client(server.baseUrl).raw(API.loginBackground)).status).toBe(404);
  });

  it('admin switches: form-encoded, checked, on record; JSON refused', async () => {
    const gesture = await oneRowOf(server, () => formPost(admin, API.switchGesture, 'value=1'));
    expect(gesture).toMatchObject({ action: 'tenant.settingChange', outcome: 'ok' });
    expect(gesture.parsedDetail).toEqual({ tenantId, from: false, to: true });
    // The record names the switch as 系统配置 does, not by its key.
    expect(gesture.parsedTargets).toEqual([{ type: 'setting', id: 'gesture', name: '手势密码' }]);
    expect((await formPost(admin, API.switchPublicDownload, 'value=0')).body.data).toMatchObject({ gesture: true, publicDownLoad: false });
    expect((await formPost(admin, API.modifySyncTime, 'syncTime=15')).body.data!.syncTime).toBe(15);
    expect((await formPost(admin, API.modifySyncTime, 'syncTime=0')).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await formPost(admin, API.switchExchange, 'value=yes')).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await admin.post(API.switchKeyCreate, { value: '0' })).status).toBe(415);
    expect((await member.get<{ data: TenantInfo }>(API.tenantInfo)).body.data.switches).toEqual({ gesture: true, keyCreate: true, publicDownLoad: false, exchangeSwitch: true, webdav: true, syncTime: 15, gestureIdle: 5 });
    // The other tenant is untouched.
    expect((await other.get<{ data: TenantInfo }>(API.tenantInfo)).body.data.switches).toMatchObject({ gesture: false, publicDownLoad: true, syncTime: 30 });
  });
});

describe('dictionaries and static data', () => {
  it('list, queryByGroup and group/get; the static data lists (quota as the people pages allow it)', async () => {
    const groups = await member.post<{ data: DictGroup[] }>(API.dictList, {});
    expect(groups.body.data.map((g) => g.code)).toEqual(['module-switch', 'quota', 'customerTelephone', 'validity']);
    const quota = await member.get<{ data: DictItem[] }>(`${API.dictQueryByGroup}?group=quota`);
    expect(quota.body.data.map((i) => Number(i.value))).toEqual(QUOTA_CHOICES.map((q) => q.bytes));
    expect((await member.get<{ data: DictGroup }>(API.dictGroupGet)).body.data.code).toBe(DICT_GROUP.moduleSwitch);
    expect((await member.get(`${API.dictQueryByGroup}?group=nope`)).body).toMatchObject({ errorCode: ERRORS.DICT_NOT_FOUND.code });
    const data = await member.post<{ data: StaticData }>(API.staticData, { names: ['quota', 'customerTelephone', 'validity'] });
    expect(Object.keys(data.body.data)).toEqual(['quota', 'customerTelephone', 'validity']);
    expect(data.body.data.validity!.map((i) => i.label)).toEqual(['1天', '7天', '30天', '永久有效']);
    expect((await member.post(API.staticData, { names: ['secrets'] })).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
  });

  it('the module switch decides the menu (of the tenant only); each change is on record', async () => {
    const menuCodes = async (client: Client) => {
      const res = await client.get<{ data: MenuItem[] }>(API.menu);
      const codes: string[] = [];
      const walk = (items: MenuItem[]) => items.forEach((i) => (codes.push(i.code), i.children && walk(i.children)));
      walk(res.body.data);
      return codes;
    };
    expect(await menuCodes(member)).toContain('group');
    const off = await oneRowOf(server, () => admin.post(API.dictItemUpdate, { group: 'module-switch', code: 'group', enabled: false }));
    expect(off).toMatchObject({ action: 'tenant.dictChange', outcome: 'ok' });
    expect(off.parsedDetail).toEqual({ enabled: { from: true, to: false } });
    expect(await menuCodes(member)).not.toContain('group');
    expect(await menuCodes(admin)).not.toContain('group');
    expect(await menuCodes(other)).toContain('group');
    await admin.post(API.dictItemUpdate, { group: 'validity', code: '1', enabled: false });
    expect((await member.post<{ data: StaticData }>(API.staticData, { names: ['validity'] })).body.data.validity!.map((i) => i.code)).toEqual(['7', '30', '0']);
    const phone = await admin.post<{ data: DictGroup }>(API.dictItemUpdate, { group: 'customerTelephone', code: 'service', value: '400-123-4567' });
    expect(phone.body.data.items[0]!.value).toBe('400-123-4567');
    expect((await admin.post(API.dictItemUpdate, { group: 'quota', code: 'nope', enabled: false })).body).toMatchObject({ errorCode: ERRORS.DICT_NOT_FOUND.code });
    await admin.post(API.dictItemUpdate, { group: 'module-switch', code: 'group', enabled: true });
    expect(await menuCodes(member)).toContain('group');
  });
});

describe("the platform's own action log", () => {
  it('failed logins of names no account has: read by the platform admin (tenantId ""), refused to a tenant admin', async () => {
    await login(server, new Client(server.baseUrl), { username: 'ghost', password: 'Ghost@2024' });
    const res = await admin.post<{ data: ActionLogListResponse }>(API.actionLogList, { tenantId: '' });
    expect(res.body.data.items.map((e) => [e.action, e.actor.account, e.errorCode])).toEqual([['auth.login', 'ghost', ERRORS.LOGIN_FAILED.code]]);
    const refused: Answer<{ errorCode?: string }> = await other.post(API.actionLogList, { tenantId: '' });
    expect(refused.body).toMatchObject({ errorCode: ERRORS.TENANT_NOT_FOUND.code });
    expect((await other.post(API.actionLogList, { tenantId })).body).toMatchObject({ errorCode: ERRORS.TENANT_NOT_FOUND.code });
  });
});
