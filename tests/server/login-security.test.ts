import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_NETWORK_ENV } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { encryptPassword } from '../../common/crypto/password-cipher';
import {
  ADMIN,
  Client,
  loggedInClient,
  login,
  MEMBER,
  postLoginForm,
  solveCaptcha,
  startServer,
  userIdOf,
  withDb,
  type Answer,
  type TestServer,
} from './helpers';

/**
 * Brute force, captcha skipping and replay against the real server. Small thresholds; waits long
 * enough that "too soon" holds on a loaded machine, and `elapse` moves the recorded failures into the
 * past instead of sleeping through them. trustProxy lets each request claim its client address with
 * X-Forwarded-For, so per-account and per-address counting can be told apart.
 */
const POLICY = { loginSlowAfter: 3, loginAddressSlowAfter: 3, loginDelayBaseMs: 10_000, loginDelayMaxMs: 20_000, loginLockAfter: 6 };

let server: TestServer;
let admin: Client;
let addressSeq = 0;
/** A client address never used before in this file. */
const freshAddress = (): Record<string, string> => ({ 'x-forwarded-for': `10.0.${Math.floor(++addressSeq / 250)}.${addressSeq % 250}` });
/** Lets `ms` pass for the login throttle: every recorded failure moves that far into the past. */
const elapse = (ms: number) =>
  withDb(server, (db) => db.prepare('update login_failures set last_failure_at = last_failure_at - ?, first_failure_at = first_failure_at - ?').run(ms, ms));

beforeAll(async () => {
  server = await startServer({ trustProxy: ['loopback'], accounts: POLICY });
  admin = await loggedInClient(server, ADMIN);
});
afterAll(async () => {
  await server.close();
});

function outcome(res: Answer): string {
  const body = res.body as { errorCode?: string };
  return `${res.status} ${body.errorCode ?? 'ok'}`;
}

/**
 * Wrong passwords for `username`, each from a fresh address (so only the account counter acts), each
 * attempt made as soon as allowed; records every answer, waits included.
 */
async function hammer(username: string, attempts: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < attempts; i++) {
    for (;;) {
      const res = await login(server, new Client(server.baseUrl), { username, password: 'Wrong@2024' }, freshAddress());
      seen.push(outcome(res));
      if ((res.body as { errorCode?: string }).errorCode !== ERRORS.TOO_MANY_ATTEMPTS.code) break;
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      await elapse(POLICY.loginDelayMaxMs);
    }
  }
  return seen;
}

describe('brute force', () => {
  it('slows an account down after 3 failures, then locks it after 6; the right password then gets ACCOUNT_LOCKED', async () => {
    const lockCandidate = 'member';
    const failed = `400 ${ERRORS.LOGIN_FAILED.code}`;
    const wait = `400 ${ERRORS.TOO_MANY_ATTEMPTS.code}`;
    const first3: string[] = [];
    for (let i = 0; i < 3; i++) {
      first3.push(outcome(await login(server, new Client(server.baseUrl), { username: lockCandidate, password: 'Wrong@2024' }, freshAddress())));
    }
    expect(first3).toEqual([failed, failed, failed]);

    // The 4th try at once, even from a new address and with the right password, must wait.
    const tooSoon = await login(server, new Client(server.baseUrl), MEMBER, freshAddress());
    expect(tooSoon.body).toMatchObject({ errorCode: ERRORS.TOO_MANY_ATTEMPTS.code });
    expect((tooSoon.body as unknown as { errorMessage: string }).errorMessage).toMatch(/^尝试次数过多，请稍后再试（\d+秒后）$/);
    expect(tooSoon.headers.getSetCookie().some((c) => c.startsWith('sid=') && !c.startsWith('sid=;'))).toBe(false);

    const rest = await hammer(lockCandidate, 3);
    expect(rest.filter((o) => o === failed)).toHaveLength(3);
    expect(rest.filter((o) => o !== failed).every((o) => o === wait)).toBe(true);

    await elapse(POLICY.loginDelayMaxMs);
    const right = await login(server, new Client(server.baseUrl), MEMBER, freshAddress());
    expect(right.body).toEqual({ errorCode: ERRORS.ACCOUNT_LOCKED.code, errorMessage: ERRORS.ACCOUNT_LOCKED.message });

    // An admin unlocks it: the right password works again, with no leftover wait.
    const unlock = await admin.post(API.accountUnlock, { userId: await userIdOf(server, lockCandidate) });
    expect(unlock.status).toBe(200);
    const again = await login(server, new Client(server.baseUrl), MEMBER, freshAddress());
    expect(again.status).toBe(200);
  });

  it('gives an unknown account name exactly the same answers, lock included (no enumeration)', async () => {
    // A real account and a name that does not exist, attacked the same way, answer the same sequence.
    const real = await hammer('admin', 6);
    const ghost = await hammer('ghost-account', 6);
    const compact = (xs: string[]) => xs.filter((x) => !x.endsWith(ERRORS.TOO_MANY_ATTEMPTS.code));
    expect(compact(real)).toEqual(compact(ghost));
    await elapse(POLICY.loginDelayMaxMs);
    const realLocked = await login(server, new Client(server.baseUrl), { username: 'admin', password: 'Wrong@2024' }, freshAddress());
    const ghostLocked = await login(server, new Client(server.baseUrl), { username: 'ghost-account', password: 'Wrong@2024' }, freshAddress());
    expect(realLocked.body).toEqual({ errorCode: ERRORS.ACCOUNT_LOCKED.code, errorMessage: ERRORS.ACCOUNT_LOCKED.message });
    expect(ghostLocked.body).toEqual(realLocked.body);
    expect(ghostLocked.status).toBe(realLocked.status);

    // The admin's own live session is untouched by a lock-out an attacker caused.
    expect((await admin.get(API.menu)).status).toBe(200);
    expect((await admin.post(API.accountUnlock, { userId: await userIdOf(server, 'admin') })).status).toBe(200);
    expect((await login(server, new Client(server.baseUrl), ADMIN, freshAddress())).status).toBe(200);
  });

  it('attempts fired in parallel cannot slip past the count', async () => {
    const name = 'parallel-target';
    const solved = [];
    for (let i = 0; i < 8; i++) solved.push(await solveCaptcha(server, new Client(server.baseUrl)));
    const answers = await Promise.all(
      solved.map(({ captchaId, answer }) =>
        postLoginForm(
          new Client(server.baseUrl),
          { username: name, password: encryptPassword('Wrong@2024'), captchaId, captchaCode: answer },
          freshAddress(),
        ),
      ),
    );
    const codes = answers.map((a) => (a.body as unknown as { errorCode: string }).errorCode);
    expect(codes.filter((c) => c === ERRORS.LOGIN_FAILED.code)).toHaveLength(POLICY.loginSlowAfter);
    expect(codes.filter((c) => c === ERRORS.TOO_MANY_ATTEMPTS.code)).toHaveLength(8 - POLICY.loginSlowAfter);
  });

  it('slows down one address trying many names, without touching other addresses', async () => {
    const attacker = freshAddress();
    for (const name of ['n1', 'n2', 'n3']) {
      const res = await login(server, new Client(server.baseUrl), { username: name, password: 'Wrong@2024' }, attacker);
      expect(res.body).toMatchObject({ errorCode: ERRORS.LOGIN_FAILED.code });
    }
    const fromAttacker = await login(server, new Client(server.baseUrl), ADMIN, attacker);
    expect(fromAttacker.body).toMatchObject({ errorCode: ERRORS.TOO_MANY_ATTEMPTS.code });
    const elsewhere = await login(server, new Client(server.baseUrl), ADMIN, freshAddress());
    expect(elsewhere.status).toBe(200);
    await elapse(POLICY.loginDelayBaseMs);
    expect((await login(server, new Client(server.baseUrl), ADMIN, attacker)).status).toBe(200);
  });
});

describe('captcha skipping and replay', () => {
  it('never checks a password without a valid captcha, and such attempts do not count', async () => {
    const address = freshAddress();
    for (let i = 0; i < 5; i++) {
      const none = await postLoginForm(new Client(server.baseUrl), { username: 'admin', password: encryptPassword('Wrong@2024') }, address);
      expect(none.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_REQUIRED.code });
      const made_up = await postLoginForm(
        new Client(server.baseUrl),
        { username: 'admin', password: encryptPassword(ADMIN.password), captchaId: `made-up-${i}`, captchaCode: 'abcd' },
        address,
      );
      expect(made_up.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
      expect(made_up.headers.getSetCookie().some((c) => c.startsWith('sid=') && !c.startsWith('sid=;'))).toBe(false);
    }
    // Ten refused attempts, none of them a password failure: no wait for this address.
    expect((await login(server, new Client(server.baseUrl), ADMIN, address)).status).toBe(200);
  });

  it('refuses a captured successful login replayed later, and a captured failed one too', async () => {
    const client = new Client(server.baseUrl);
    const { captchaId, answer } = await solveCaptcha(server, client);
    const captured = { username: 'admin', password: encryptPassword(ADMIN.password), captchaId, captchaCode: answer };
    const address = freshAddress();
    expect((await postLoginForm(client, captured, address)).status).toBe(200);
    const replay = await postLoginForm(new Client(server.baseUrl), captured, address);
    expect(replay.body).toEqual({ errorCode: ERRORS.CAPTCHA_INVALID.code, errorMessage: ERRORS.CAPTCHA_INVALID.message });

    const second = await solveCaptcha(server, client);
    const failed = { username: 'admin', password: encryptPassword('Wrong@2024'), captchaId: second.captchaId, captchaCode: second.answer };
    expect((await postLoginForm(client, failed, address)).body).toMatchObject({ errorCode: ERRORS.LOGIN_FAILED.code });
    expect((await postLoginForm(client, failed, address)).body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
  });

  it('/spacex/captcha/validate: a wrong answer burns the captcha, a right one leaves it usable once by login', async () => {
    const client = new Client(server.baseUrl);
    const a = await solveCaptcha(server, client);
    const wrongCode = a.answer === 'abcd' ? 'abce' : 'abcd';
    const wrong = await client.get(`${API.captchaValidate}?captchaId=${a.captchaId}&captchaCode=${wrongCode}`);
    expect(wrong.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
    const late = await client.get(`${API.captchaValidate}?captchaId=${a.captchaId}&captchaCode=${a.answer}`);
    expect(late.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });

    const b = await solveCaptcha(server, client);
    const right = await client.get(`${API.captchaValidate}?captchaId=${b.captchaId}&captchaCode=${b.answer}`);
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ data: true });
    const form = { username: 'admin', password: encryptPassword(ADMIN.password), captchaId: b.captchaId, captchaCode: b.answer };
    expect((await postLoginForm(client, form, freshAddress())).status).toBe(200);
    expect((await postLoginForm(client, form, freshAddress())).body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
  });
});

describe('admin lock and outer login', () => {
  it('an admin lock ends the sessions (400sec-core-301), hides itself from wrong passwords, and unlock restores login', async () => {
    const target = await loggedInClient(server, MEMBER);
    const memberId = await userIdOf(server, 'member');
    expect((await target.post(API.userDetails)).status).toBe(200);
    expect((await admin.post(API.accountLock, { userId: memberId })).status).toBe(200);

    const kicked = await target.post(API.userDetails);
    expect(kicked.status).toBe(400);
    expect(kicked.body).toEqual({ errorCode: ERRORS.SESSION_TERMINATED.code, errorMessage: ERRORS.SESSION_TERMINATED.message });

    const wrong = await login(server, new Client(server.baseUrl), { username: 'member', password: 'Wrong@2024' }, freshAddress());
    expect(wrong.body).toMatchObject({ errorCode: ERRORS.LOGIN_FAILED.code });
    const right = await login(server, new Client(server.baseUrl), MEMBER, freshAddress());
    expect(right.body).toMatchObject({ errorCode: ERRORS.ACCOUNT_LOCKED.code });

    expect((await admin.post(API.accountLock, { userId: await userIdOf(server, 'admin') })).body).toMatchObject({
      errorCode: ERRORS.CANNOT_LOCK_SELF.code,
    });
    expect((await admin.post(API.accountUnlock, { userId: memberId })).status).toBe(200);
    expect((await login(server, new Client(server.baseUrl), MEMBER, freshAddress())).status).toBe(200);
  });

  it('refuses the public-network build to an account without outer login, after the password check', async () => {
    const memberId = await userIdOf(server, 'member');
    const publicHeaders = () => ({ ...freshAddress(), [HEADER_NETWORK_ENV]: 'public' });
    const publicSession = new Client(server.baseUrl);
    expect((await login(server, publicSession, MEMBER, publicHeaders())).status).toBe(200);
    const internalSession = await loggedInClient(server, MEMBER);

    expect((await admin.post(API.outerLoginSet, { userId: memberId, enabled: false })).status).toBe(200);
    // Its public-network session ends; the internal one goes on.
    expect((await publicSession.post(API.userDetails)).body).toMatchObject({ errorCode: ERRORS.SESSION_TERMINATED.code });
    expect((await internalSession.post(API.userDetails)).status).toBe(200);

    const refused = await login(server, new Client(server.baseUrl), MEMBER, publicHeaders());
    expect(refused.body).toEqual({ errorCode: ERRORS.OUTER_LOGIN_REFUSED.code, errorMessage: ERRORS.OUTER_LOGIN_REFUSED.message });
    // A wrong password learns nothing about outer login.
    const wrong = await login(server, new Client(server.baseUrl), { username: 'member', password: 'Wrong@2024' }, publicHeaders());
    expect(wrong.body).toMatchObject({ errorCode: ERRORS.LOGIN_FAILED.code });
    expect((await login(server, new Client(server.baseUrl), MEMBER, freshAddress())).status).toBe(200);

    expect((await admin.post(API.outerLoginSet, { userId: memberId, enabled: true })).status).toBe(200);
    expect((await login(server, new Client(server.baseUrl), MEMBER, publicHeaders())).status).toBe(200);
  });

  it('FORCE_NETWORK_ENV=public overrides a client claiming to be internal', async () => {
    const forced = await startServer({ accounts: { forceNetworkEnv: 'public' } });
    try {
      const adminClient = await loggedInClient(forced, ADMIN);
      const memberId = await userIdOf(forced, 'member');
      expect((await adminClient.post(API.outerLoginSet, { userId: memberId, enabled: false })).status).toBe(200);
      const res = await login(forced, new Client(forced.baseUrl), MEMBER, { [HEADER_NETWORK_ENV]: 'internal' });
      expect(res.body).toMatchObject({ errorCode: ERRORS.OUTER_LOGIN_REFUSED.code });
    } finally {
      await forced.close();
    }
  });
});
