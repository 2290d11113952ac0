import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { SignedInDevice } from '../../common/api/types';
import { describeUserAgent } from '../../common/account/user-agent';
import { oneRowOf } from './action-log-kit';
import { addTenantWithUser, ADMIN, Client, liftPasswordGate, login, MEMBER, startServer, type TestServer } from './helpers';

/**
 * 账号安全's signed-in devices (issue 44): the caller's active sessions with device, browser, address
 * and last activity; 退出 one of them or every other one, each written to the action log; another
 * user's or another tenant's session id answers 404 like an unknown one.
 */
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IPHONE_SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const MAC_EDGE = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ trustProxy: ['loopback'] });
  await liftPasswordGate(server, MEMBER.username);
  await addTenantWithUser(server, 'elsewhere', 'Elsewhere@2024');
});
afterAll(async () => {
  await server.close();
});

/** A client signed in as `account` from a device with this User-Agent and address. */
async function device(account: { username: string; password: string }, userAgent: string, address: string): Promise<Client> {
  const client = new Client(server.baseUrl);
  const res = await login(server, client, account, { 'user-agent': userAgent, 'x-forwarded-for': address });
  expect(res.status).toBe(200);
  return client;
}

const devicesOf = async (client: Client) => {
  const res = await client.get<{ data: SignedInDevice[] }>(API.accountSessions);
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('signed-in devices', () => {
  it('lists the caller’s own active sessions with device, browser, address and this one marked', async () => {
    const pc = await device(ADMIN, WINDOWS_CHROME, '10.9.0.1');
    const phone = await device(ADMIN, IPHONE_SAFARI, '10.9.0.2');
    await device(MEMBER, MAC_EDGE, '10.9.0.3');
    const seen = await devicesOf(pc);
    const mine = seen.filter((d) => d.address?.startsWith('10.9.0.'));
    expect(mine.map((d) => [d.device, d.browser, d.address, d.current]).sort()).toEqual(
      [
        ['Windows 电脑', 'Chrome 120', '10.9.0.1', true],
        ['iPhone', 'Safari 17', '10.9.0.2', false],
      ].sort(),
    );
    expect(seen.filter((d) => d.current)).toHaveLength(1);
    for (const d of seen) {
      expect(d.id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(d.lastActiveAt).toBeGreaterThanOrEqual(d.signedInAt);
    }
    // The phone sees the same devices, itself marked.
    expect((await devicesOf(phone)).find((d) => d.current)?.device).toBe('iPhone');
  });

  it('退出 one device: its next call answers 400sec-core-301, the list drops it, the action log has it', async () => {
    const pc = await device(ADMIN, WINDOWS_CHROME, '10.9.1.1');
    const phone = await device(ADMIN, IPHONE_SAFARI, '10.9.1.2');
    const target = (await devicesOf(pc)).find((d) => d.address === '10.9.1.2')!;
    const row = await oneRowOf(server, () => pc.post(API.accountSessionEnd, { id: target.id }));
    expect(row).toMatchObject({ action: 'account.sessionEnd', outcome: 'ok', actor_account: 'admin' });
    expect(row.parsedDetail).toMatchObject({ device: 'iPhone · Safari 17', address: '10.9.1.2' });
    expect((await phone.post(API.userDetails)).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    expect((await devicesOf(pc)).some((d) => d.id === target.id)).toBe(false);
    // Again, or this device itself (that is 退出登录): not a device to sign out here.
    expect((await pc.post(API.accountSessionEnd, { id: target.id })).body).toMatchObject({ errorCode: ERRORS.SESSION_NOT_FOUND.code });
    const self = (await devicesOf(pc)).find((d) => d.current)!;
    expect((await pc.post(API.accountSessionEnd, { id: self.id })).status).toBe(404);
    expect((await pc.post(API.userDetails)).status).toBe(200);
  });

  it("another user's or another tenant's session id answers 404, like an unknown one, and ends nothing", async () => {
    const admin = await device(ADMIN, WINDOWS_CHROME, '10.9.2.1');
    const member = await device(MEMBER, MAC_EDGE, '10.9.2.2');
    const stranger = await device({ username: 'elsewhere', password: 'Elsewhere@2024' }, IPHONE_SAFARI, '10.9.2.3');
    const adminId = (await devicesOf(admin)).find((d) => d.current)!.id;
    const strangerId = (await devicesOf(stranger)).find((d) => d.current)!.id;
    const unknown = await member.post(API.accountSessionEnd, { id: 'no-such-session-0000' });
    expect(unknown.status).toBe(404);
    for (const [caller, id] of [
      [member, adminId],
      [stranger, adminId],
      [admin, strangerId],
    ] as const) {
      const res = await caller.post(API.accountSessionEnd, { id });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(unknown.body);
    }
    expect((await admin.post(API.userDetails)).status).toBe(200);
    expect((await stranger.post(API.userDetails)).status).toBe(200);
  });

  it('退出其他设备 ends every other session of the caller only, recorded once with the devices', async () => {
    const keep = await device(MEMBER, MAC_EDGE, '10.9.3.1');
    const others = [await device(MEMBER, WINDOWS_CHROME, '10.9.3.2'), await device(MEMBER, IPHONE_SAFARI, '10.9.3.3')];
    const admin = await device(ADMIN, WINDOWS_CHROME, '10.9.3.4');
    const before = (await devicesOf(keep)).length;
    expect(before).toBeGreaterThanOrEqual(3);
    const row = await oneRowOf(server, () => keep.post(API.accountSessionEndOthers, {}));
    expect(row).toMatchObject({ action: 'account.sessionEndOthers', outcome: 'ok', actor_account: 'member' });
    expect((row.parsedDetail as { devices: unknown[] }).devices).toHaveLength(before - 1);
    for (const other of others) expect((await other.post(API.userDetails)).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    expect((await devicesOf(keep)).map((d) => d.current)).toEqual([true]);
    expect((await admin.post(API.userDetails)).status).toBe(200);
    expect((await keep.post(API.accountSessionEndOthers, {})).body).toEqual({ data: { ended: 0 } });
  });
});

describe('describeUserAgent', () => {
  it('names the usual devices and browsers', () => {
    expect(describeUserAgent(WINDOWS_CHROME)).toEqual({ device: 'Windows 电脑', browser: 'Chrome 120' });
    expect(describeUserAgent(MAC_EDGE)).toEqual({ device: 'Mac 电脑', browser: 'Edge 120' });
    expect(describeUserAgent(IPHONE_SAFARI)).toEqual({ device: 'iPhone', browser: 'Safari 17' });
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 MicroMessenger/8.0.44')).toEqual({
      device: 'Android 手机',
      browser: '微信 8',
    });
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) enterprise-drive/1.2.0 Chrome/126.0 Electron/31.0.0 Safari/537.36')).toEqual({
      device: 'Windows 电脑',
      browser: '企业云盘桌面客户端',
    });
    expect(describeUserAgent(null)).toEqual({ device: '未知设备', browser: '' });
  });
});
