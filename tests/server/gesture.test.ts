import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GestureStatus } from '../../common/api/endpoints/gesture';
import { ERRORS, GESTURE_LOCKOUT_MESSAGE } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { TenantSwitches } from '../../common/api/tenant';
import { patternText } from '../../common/gesture/pattern';
import { oneRowOf } from './action-log-kit';
import { addTenantWithUser, ADMIN, liftPasswordGate, loggedInClient, MEMBER, startServer, userIdOf, withDb, type Client, type TestServer } from './helpers';

/**
 * 手势密码 (issue 38): the pattern is kept only as a salted scrypt hash, checked on the server; five
 * wrong patterns in a row end the session server side; with the tenant's switch off nothing is asked.
 */
let server: TestServer;
let admin: Client;

const Z = [0, 1, 2, 4, 6, 7, 8];
const L = [0, 3, 6, 7, 8];

const formPost = (client: Client, path: string, body: string) =>
  client.raw(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: TenantSwitches; errorCode?: string } }));
const statusOf = async (client: Client) => (await client.get<{ data: GestureStatus }>(API.gestureStatus)).body.data;
const hashOf = (userId: string) =>
  withDb(server, (db) => (db.prepare('select hash from gesture_patterns where user_id = ?').get(userId) as { hash: string } | undefined)?.hash);
const switchGesture = async (on: boolean) => expect((await formPost(admin, API.switchGesture, `value=${on ? 1 : 0}`)).status).toBe(200);

beforeAll(async () => {
  server = await startServer();
  await liftPasswordGate(server, MEMBER.username);
  await addTenantWithUser(server, 'gesture-other', 'Other@2024x');
  admin = await loggedInClient(server, ADMIN);
});
afterAll(async () => {
  await server.close();
});

describe('gesture lock', () => {
  it('is off by default: nothing can be set and nothing is asked', async () => {
    const member = await loggedInClient(server, MEMBER);
    expect(await statusOf(member)).toEqual({ enabled: false, set: false, required: false, idleMinutes: 5, locked: false });
    const refused = await oneRowOf(server, () => member.post(API.gestureSet, { pattern: Z }));
    expect(refused).toMatchObject({ action: 'account.gestureSet', outcome: 'refused', error_code: ERRORS.GESTURE_DISABLED.code });
  });

  it('stores a salted, one-way hash per user, never the pattern; the same pattern hashes differently for two users', async () => {
    await switchGesture(true);
    const member = await loggedInClient(server, MEMBER);
    const row = await oneRowOf(server, () => member.post(API.gestureSet, { pattern: Z }));
    expect(row).toMatchObject({ action: 'account.gestureSet', outcome: 'ok', actor_account: 'member' });
    expect(row.parsedDetail).toMatchObject({ points: Z.length, replaced: false });
    expect(await statusOf(member)).toMatchObject({ enabled: true, set: true, required: true });
    expect((await admin.post(API.gestureSet, { pattern: Z })).status).toBe(200);

    const [memberHash, adminHash] = [await hashOf(await userIdOf(server, MEMBER.username)), await hashOf(await userIdOf(server, ADMIN.username))];
    for (const hash of [memberHash!, adminHash!]) {
      expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]{20,}\$[A-Za-z0-9+/=]{40,}$/);
      // Neither the dots nor their text appear in what is stored.
      expect(hash).not.toContain(patternText(Z));
      expect(hash).not.toContain(Z.join(''));
    }
    // Salted per user: the same pattern gives different salts and different keys.
    expect(memberHash!.split('$')[4]).not.toBe(adminHash!.split('$')[4]);
    expect(memberHash!.split('$')[5]).not.toBe(adminHash!.split('$')[5]);
    // A hash copied to another user's row does not open that user's lock either.
    const adminId = await userIdOf(server, ADMIN.username);
    await withDb(server, (db) => db.prepare('update gesture_patterns set hash = ? where user_id = ?').run(memberHash, adminId));
    expect((await admin.post(API.gestureVerify, { pattern: Z })).body).toMatchObject({ errorCode: ERRORS.GESTURE_WRONG.code });
    expect((await member.post(API.gestureVerify, { pattern: Z })).body).toEqual({ data: true });
  });

  it('refuses patterns a pad cannot draw or with fewer than 4 dots, and stores nothing for them', async () => {
    const member = await loggedInClient(server, MEMBER);
    const before = await hashOf(await userIdOf(server, MEMBER.username));
    for (const pattern of [[0, 1, 2], [0, 1, 1, 2], [0, 2, 5, 8], [0, 1, 9, 4]]) {
      expect((await member.post(API.gestureSet, { pattern })).body).toMatchObject({ errorCode: pattern.includes(9) ? ERRORS.VALIDATION.code : ERRORS.GESTURE_INVALID.code });
    }
    expect(await hashOf(await userIdOf(server, MEMBER.username))).toBe(before);
  });

  it('counts wrong patterns on the server: a right one resets the count, the 5th wrong in a row ends the session', async () => {
    const member = await loggedInClient(server, MEMBER);
    const other = await loggedInClient(server, MEMBER);
    expect((await member.post(API.gestureSet, { pattern: L })).status).toBe(200);

    const wrong = await member.post<{ errorCode: string; errorMessage: string; remaining: number }>(API.gestureVerify, { pattern: Z });
    expect(wrong.body).toMatchObject({ errorCode: ERRORS.GESTURE_WRONG.code, remaining: 4, errorMessage: '手势密码错误，还可尝试 4 次' });
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toEqual({ data: true });

    for (let left = 4; left >= 1; left--) {
      const answer = await oneRowOf(server, () => member.post(API.gestureVerify, { pattern: Z }));
      expect(answer).toMatchObject({ action: 'account.gestureUnlock', outcome: 'refused', error_code: ERRORS.GESTURE_WRONG.code });
    }
    let last: { status: number; body: unknown } | undefined;
    const row = await oneRowOf(server, async () => (last = await member.post(API.gestureVerify, { pattern: Z })));
    expect(last!.body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code, errorMessage: GESTURE_LOCKOUT_MESSAGE });
    expect(row).toMatchObject({ action: 'account.gestureUnlock', outcome: 'refused', error_code: ERRORS.SESSION_TERMINATED.code });
    expect(row.parsedDetail).toMatchObject({ try: 5, signedOut: true });
    // The session is over, server side: even the right pattern cannot bring it back.
    expect((await member.post(API.userDetails)).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    // Another device of the same user keeps its own count and its session.
    expect((await other.post(API.gestureVerify, { pattern: L })).body).toEqual({ data: true });
  });

  it('tries sent all at once cannot get past the limit', async () => {
    const member = await loggedInClient(server, MEMBER);
    const answers = await Promise.all(Array.from({ length: 8 }, () => member.post<{ errorCode?: string }>(API.gestureVerify, { pattern: Z })));
    const codes = answers.map((a) => a.body.errorCode);
    expect(codes.filter((c) => c === ERRORS.GESTURE_WRONG.code).length).toBeLessThanOrEqual(4);
    expect(codes.filter((c) => c === ERRORS.SESSION_TERMINATED.code).length).toBeGreaterThanOrEqual(4);
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
  });

  it('with the switch off nothing is asked, even with a pattern set; clearing is recorded', async () => {
    const member = await loggedInClient(server, MEMBER);
    await switchGesture(false);
    expect(await statusOf(member)).toMatchObject({ enabled: false, set: true, required: false });
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toMatchObject({ errorCode: ERRORS.GESTURE_DISABLED.code });
    const row = await oneRowOf(server, () => member.post(API.gestureClear));
    expect(row).toMatchObject({ action: 'account.gestureClear', outcome: 'ok' });
    expect(row.parsedDetail).toEqual({ hadPattern: true });
    expect(await statusOf(member)).toMatchObject({ set: false, required: false });
    await switchGesture(true);
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toMatchObject({ errorCode: ERRORS.GESTURE_NOT_SET.code });
  });

  it('the idle time is a tenant setting beside the switch: admins only, 1–1440 minutes, on the action log', async () => {
    const member = await loggedInClient(server, MEMBER);
    const row = await oneRowOf(server, () => admin.post(API.gestureIdleTime, { idleTime: 2 }));
    expect(row).toMatchObject({ action: 'tenant.settingChange', outcome: 'ok' });
    expect(row.parsedDetail).toMatchObject({ from: 5, to: 2 });
    expect(row.parsedTargets).toEqual([{ type: 'setting', id: 'gestureIdle', name: '手势密码锁定时间' }]);
    expect(await statusOf(member)).toMatchObject({ idleMinutes: 2 });
    for (const bad of [0, 1441, 2.5, 'x']) expect((await admin.post<{ errorCode?: string }>(API.gestureIdleTime, { idleTime: bad })).body.errorCode).toBe(ERRORS.VALIDATION.code);
    expect((await member.post<{ errorCode?: string }>(API.gestureIdleTime, { idleTime: 9 })).body.errorCode).toBe(ERRORS.FORBIDDEN.code);
    const otherTenant = await loggedInClient(server, { username: 'gesture-other', password: 'Other@2024x' });
    expect(await statusOf(otherTenant)).toEqual({ enabled: false, set: false, required: false, idleMinutes: 5, locked: false });
  });
});

describe('gesture lock enforced by the server', () => {
  const OTHER = { username: 'gesture-other', password: 'Other@2024x' };
  const listFiles = (client: Client) => client.post<{ errorCode?: string; errorMessage?: string }>(API.fileList, { parentId: null, category: 1 });
  const expectLocked = async (client: Client) =>
    expect((await listFiles(client)).body).toMatchObject({ errorCode: ERRORS.GESTURE_LOCKED.code, errorMessage: '请先解锁手势密码' });

  it('a locked session is refused all but the lock screen\'s calls until a right pattern; other sessions are not', async () => {
    const member = await loggedInClient(server, MEMBER);
    const otherDevice = await loggedInClient(server, MEMBER);
    const otherTenant = await loggedInClient(server, OTHER);
    expect((await member.post(API.gestureSet, { pattern: L })).status).toBe(200);
    expect((await listFiles(member)).status).toBe(200);

    const row = await oneRowOf(server, () => member.post(API.gestureLock));
    expect(row).toMatchObject({ action: 'account.gestureLock', outcome: 'ok', actor_account: 'member' });
    await expectLocked(member);
    // Clearing or replacing the pattern is no way around it either.
    for (const call of [member.post(API.gestureClear), member.post(API.gestureSet, { pattern: Z })]) {
      expect((await call).body).toMatchObject({ errorCode: ERRORS.GESTURE_LOCKED.code });
    }
    // What the lock screen needs keeps working.
    expect(await statusOf(member)).toMatchObject({ required: true, locked: true });
    expect((await member.post(API.userDetails)).status).toBe(200);

    // Another session of the same user, another user and another tenant's user are not locked.
    expect((await listFiles(otherDevice)).status).toBe(200);
    expect(await statusOf(otherDevice)).toMatchObject({ required: true, locked: false });
    expect((await listFiles(admin)).status).toBe(200);
    expect((await listFiles(otherTenant)).status).toBe(200);
    expect((await otherTenant.post(API.gestureLock)).body).toMatchObject({ errorCode: ERRORS.GESTURE_DISABLED.code });

    // A wrong pattern leaves it locked; the right one opens it.
    expect((await member.post(API.gestureVerify, { pattern: Z })).body).toMatchObject({ errorCode: ERRORS.GESTURE_WRONG.code });
    await expectLocked(member);
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toEqual({ data: true });
    expect((await listFiles(member)).status).toBe(200);
    expect(await statusOf(member)).toMatchObject({ locked: false });
  });

  it('logout works while locked, and ends the session', async () => {
    const member = await loggedInClient(server, MEMBER);
    expect((await member.post(API.gestureLock)).status).toBe(200);
    await expectLocked(member);
    const row = await oneRowOf(server, () => member.post(API.logout));
    expect(row).toMatchObject({ action: 'auth.logout', outcome: 'ok' });
    expect((await listFiles(member)).status).toBe(401);
  });

  it('five wrong patterns while locked end the session as before', async () => {
    const member = await loggedInClient(server, MEMBER);
    expect((await member.post(API.gestureLock)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await member.post(API.gestureVerify, { pattern: Z })).body).toMatchObject({ errorCode: ERRORS.GESTURE_WRONG.code });
    expect((await member.post(API.gestureVerify, { pattern: Z })).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    expect((await listFiles(member)).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
  });

  it('the admin turning the switch off lifts the lock; a lock is only taken while the lock applies', async () => {
    const member = await loggedInClient(server, MEMBER);
    expect((await member.post(API.gestureLock)).status).toBe(200);
    await expectLocked(member);
    await switchGesture(false);
    expect((await listFiles(member)).status).toBe(200);
    expect(await statusOf(member)).toMatchObject({ required: false, locked: false });
    expect((await member.post(API.gestureLock)).body).toMatchObject({ errorCode: ERRORS.GESTURE_DISABLED.code });
    await switchGesture(true);
    // Back on: the session was never unlocked, so it is asked again.
    await expectLocked(member);
    expect((await member.post(API.gestureVerify, { pattern: L })).body).toEqual({ data: true });
    expect((await member.post(API.gestureClear)).status).toBe(200);
    expect((await member.post(API.gestureLock)).body).toMatchObject({ errorCode: ERRORS.GESTURE_NOT_SET.code });
    expect((await listFiles(member)).status).toBe(200);
  });
});
