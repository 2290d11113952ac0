import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { TenantConfig, UserDetails } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { PASSWORD_MESSAGES } from '../../common/validation/password';
import { ADMIN, Client, login, loggedInClient, MEMBER, startServer, withDb, type TestServer } from './helpers';

const EXPIRY_DAYS = 30;
const DAY_MS = 24 * 3600 * 1000;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ accounts: { passwordExpiryDays: EXPIRY_DAYS } });
});
afterAll(async () => {
  await server.close();
});

const modify = (client: Client, oldPassword: string, value: string) =>
  client.post(API.userInfoModify, { value: encryptPassword(value), type: 4, oldPassword: encryptPassword(oldPassword) });

describe('initial password change (type 1)', () => {
  it('gates the member, enforces the §5 rules on the server, then ends every other session and goes on with a new token', async () => {
    const client = new Client(server.baseUrl);
    const first = await login(server, client, MEMBER);
    expect(first.body.data.passwordChangeType).toBe(1);
    const other = await loggedInClient(server, MEMBER);
    const details = await client.post<{ data: UserDetails }>(API.userDetails);
    expect(details.body.data).toMatchObject({ passwordChangeType: 1, agreementRead: false });
    expect((await client.post(API.fileList, { parentId: null, category: 1 })).body).toMatchObject({
      errorCode: ERRORS.PASSWORD_CHANGE_REQUIRED.code,
    });

    // The user agreement can be accepted during the change.
    expect((await client.post(API.readAgreement)).status).toBe(200);
    expect((await client.post<{ data: UserDetails }>(API.userDetails)).body.data.agreementRead).toBe(true);

    const cases: Array<[string, string]> = [
      ['', PASSWORD_MESSAGES.required],
      ['Abcdefgh1!Abcdefg', PASSWORD_MESSAGES.tooLong],
      ['Ab1!', PASSWORD_MESSAGES.tooShort],
      ['abcdefgh1', PASSWORD_MESSAGES.composition],
      ['abcdefgh!', PASSWORD_MESSAGES.composition],
      ['12345678!', PASSWORD_MESSAGES.composition],
      ['Abcd 123!', PASSWORD_MESSAGES.composition],
    ];
    for (const [value, message] of cases) {
      const res = await modify(client, MEMBER.password, value);
      expect(res.status, value).toBe(400);
      expect(res.body, value).toEqual({ errorCode: ERRORS.PASSWORD_INVALID.code, errorMessage: message });
    }
    expect((await modify(client, 'Wrong@2024', 'Fresh@2025x')).body).toMatchObject({ errorCode: ERRORS.OLD_PASSWORD_WRONG.code });
    expect((await modify(client, MEMBER.password, MEMBER.password)).body).toMatchObject({ errorCode: ERRORS.PASSWORD_SAME_AS_OLD.code });
    expect((await client.post(API.userInfoModify, { value: encryptPassword('Fresh@2025x'), type: 1, oldPassword: encryptPassword(MEMBER.password) })).body).toMatchObject({
      errorCode: ERRORS.VALIDATION.code,
    });

    const oldCookie = client.cookie;
    const done = await modify(client, MEMBER.password, 'Fresh@2025x');
    expect(done.status).toBe(200);
    // This device goes on with a NEW token (issue 44: no second login with a new captcha)…
    const setCookie = done.headers.getSetCookie().find((c) => c.startsWith('sid='));
    expect(setCookie).toMatch(/^sid=[A-Za-z0-9_-]{40,};/);
    expect(client.cookie).not.toBe(oldCookie);
    const after = await client.post<{ data: UserDetails }>(API.userDetails);
    expect(after.status).toBe(200);
    expect(after.body.data.passwordChangeType).toBe(0);
    expect((await client.post(API.fileList, { parentId: null, category: 1 })).status).toBe(200);
    // …while every earlier session ended: the old token of this device and the other device's.
    const stale = new Client(server.baseUrl);
    stale.cookie = oldCookie;
    expect((await stale.post(API.userDetails)).status).toBe(401);
    expect((await other.post(API.userDetails)).status).toBe(401);
    expect(await withDb(server, (db) => (db.prepare("select count(*) as n from sessions s join users u on u.id = s.user_id where u.username = 'member'").get() as { n: number }).n)).toBe(1);

    // Only a scrypt hash is stored.
    const hash = await withDb(server, (db) => (db.prepare('select password_hash from users where username = ?').get('member') as { password_hash: string }).password_hash);
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('Fresh');

    expect((await login(server, new Client(server.baseUrl), MEMBER)).body).toMatchObject({ errorCode: ERRORS.LOGIN_FAILED.code });
    const again = await login(server, new Client(server.baseUrl), { username: 'member', password: 'Fresh@2025x' });
    expect(again.status).toBe(200);
    expect(again.body.data.passwordChangeType).toBe(0);
  });
});

describe('expired password (type 2)', () => {
  it('forces a change once the password is older than the expiry days, and the server refuses other APIs', async () => {
    await withDb(server, (db) =>
      db.prepare('update users set password_changed_at = ? where username = ?').run(Date.now() - (EXPIRY_DAYS + 1) * DAY_MS, 'admin'),
    );
    const client = new Client(server.baseUrl);
    const res = await login(server, client, ADMIN);
    expect(res.status).toBe(200);
    expect(res.body.data.passwordChangeType).toBe(2);
    expect((await client.get<{ data: TenantConfig }>(API.tenantConfig)).body.data.passwordExpiryDays).toBe(EXPIRY_DAYS);
    expect((await client.post<{ data: UserDetails }>(API.userDetails)).body.data.passwordChangeType).toBe(2);
    const gated = await client.post(API.fileList, { parentId: null, category: 1 });
    expect(gated.body).toEqual({ errorCode: ERRORS.PASSWORD_EXPIRED.code, errorMessage: ERRORS.PASSWORD_EXPIRED.message });
    // Admin-only APIs are refused too, before the role is even looked at.
    expect((await client.get(API.getRoles)).body).toMatchObject({ errorCode: ERRORS.PASSWORD_EXPIRED.code });

    expect((await modify(client, ADMIN.password, 'Renewed@2025')).status).toBe(200);
    const fresh = await login(server, new Client(server.baseUrl), { username: 'admin', password: 'Renewed@2025' });
    expect(fresh.body.data.passwordChangeType).toBe(0);
  });

  it('counts wrong old passwords like login failures (a stolen session cannot guess faster)', async () => {
    const throttled = await startServer({ accounts: { loginSlowAfter: 2, loginDelayBaseMs: 5000, loginDelayMaxMs: 5000 } });
    try {
      const admin = await loggedInClient(throttled, ADMIN);
      expect((await modify(admin, 'Guess@0001', 'Renewed@2025')).body).toMatchObject({ errorCode: ERRORS.OLD_PASSWORD_WRONG.code });
      expect((await modify(admin, 'Guess@0002', 'Renewed@2025')).body).toMatchObject({ errorCode: ERRORS.OLD_PASSWORD_WRONG.code });
      const third = await modify(admin, ADMIN.password, 'Renewed@2025');
      expect(third.body).toMatchObject({ errorCode: ERRORS.TOO_MANY_ATTEMPTS.code });
      // The wait counts from the second failure: whole seconds left of the 5 s delay (less when this machine is slow).
      const retryAfter = Number(third.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(5);
    } finally {
      await throttled.close();
    }
  });
});
