import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { LoginResult, SmsSendResult, UserDetails } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { addUser, Client, loggedInClient, readSmsCode, solveCaptcha, startServer, withDb, type Answer, type TestServer } from './helpers';

/**
 * SMS codes against the real server; the development gateway writes each message to the test outbox.
 * Real lifetimes; `elapse` moves the stored codes into the past instead of sleeping through them.
 */
const POLICY = { smsCodeTtlMs: 600_000, smsResendMs: 60_000, smsPerPhonePerHour: 5, smsPerAddressPerHour: 1000, smsMaxAttempts: 3 };
const ADMIN_PHONE = '13800000000';
/** Lets `ms` pass for every stored SMS code (its sending and its expiry). */
const elapse = (ms: number) =>
  withDb(server, (db) => db.prepare('update sms_codes set created_at = created_at - ?, expires_at = expires_at - ?').run(ms, ms));

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ trustProxy: ['loopback'], accounts: POLICY });
});
afterAll(async () => {
  await server.close();
});

let addressSeq = 0;
const freshAddress = () => `10.1.0.${++addressSeq}`;

async function sendCode(
  client: Client,
  phone: string,
  opts: { purpose?: string; address?: string; platform?: boolean } = {},
): Promise<Answer<{ data: SmsSendResult }>> {
  const { captchaId, answer } = await solveCaptcha(server, client);
  const q = new URLSearchParams({ phone, purpose: opts.purpose ?? 'login', captchaId, captchaCode: answer });
  const headers: Record<string, string> = { 'x-forwarded-for': opts.address ?? freshAddress() };
  if (opts.platform !== false) headers[HEADER_PLATFORM] = 'web';
  return client.request('GET', `${API.smsSend}?${q}`, undefined, headers);
}

const smsLogin = (client: Client, phone: string, code: string) =>
  client.post<{ data: LoginResult }>(API.smsValidate, { phone, code });

async function waitOutResend(): Promise<void> {
  await elapse(POLICY.smsResendMs);
}

describe('SMS login', () => {
  it('sends a 6-digit code that logs in once, within its lifetime', async () => {
    const client = new Client(server.baseUrl);
    const since = Date.now();
    const sent = await sendCode(client, ADMIN_PHONE);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({ expiresIn: 600, resendAfter: 60 });
    const code = await readSmsCode(server, ADMIN_PHONE, since);
    expect(code).toMatch(/^\d{6}$/);

    const ok = await smsLogin(client, ADMIN_PHONE, code!);
    expect(ok.status).toBe(200);
    expect(ok.body.data.passwordChangeType).toBe(0);
    expect((await client.post<{ data: UserDetails }>(API.userDetails)).body.data.website).toBe('admin');

    const again = await smsLogin(new Client(server.baseUrl), ADMIN_PHONE, code!);
    expect(again.body).toEqual({ errorCode: ERRORS.SMS_CODE_INVALID.code, errorMessage: ERRORS.SMS_CODE_INVALID.message });
  });

  it('a code expires', async () => {
    await waitOutResend();
    const since = Date.now();
    expect((await sendCode(new Client(server.baseUrl), ADMIN_PHONE)).status).toBe(200);
    const code = await readSmsCode(server, ADMIN_PHONE, since);
    await elapse(POLICY.smsCodeTtlMs);
    expect((await smsLogin(new Client(server.baseUrl), ADMIN_PHONE, code!)).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
  });

  it('a code dies after 3 wrong tries, and a newer code replaces an older one', async () => {
    await waitOutResend();
    let since = Date.now();
    await sendCode(new Client(server.baseUrl), ADMIN_PHONE);
    const code = (await readSmsCode(server, ADMIN_PHONE, since))!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 3; i++) {
      expect((await smsLogin(new Client(server.baseUrl), ADMIN_PHONE, wrong)).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
    }
    expect((await smsLogin(new Client(server.baseUrl), ADMIN_PHONE, code)).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });

    await waitOutResend();
    since = Date.now();
    await sendCode(new Client(server.baseUrl), ADMIN_PHONE);
    const older = (await readSmsCode(server, ADMIN_PHONE, since))!;
    await waitOutResend();
    since = Date.now();
    await sendCode(new Client(server.baseUrl), ADMIN_PHONE);
    const newer = (await readSmsCode(server, ADMIN_PHONE, since))!;
    if (older !== newer) {
      expect((await smsLogin(new Client(server.baseUrl), ADMIN_PHONE, older)).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
    }
    expect((await smsLogin(new Client(server.baseUrl), ADMIN_PHONE, newer)).status).toBe(200);
  });

  it('answers an unknown phone exactly like a known one, and sends nothing to it', async () => {
    const unknownPhone = '13712345678';
    const since = Date.now();
    const known = await sendCode(new Client(server.baseUrl), '13900000000');
    const unknown = await sendCode(new Client(server.baseUrl), unknownPhone);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(await readSmsCode(server, '13900000000', since)).toMatch(/^\d{6}$/);
    expect(await readSmsCode(server, unknownPhone, since, 300)).toBeNull();
    const guess = await smsLogin(new Client(server.baseUrl), unknownPhone, '123456');
    expect(guess.body).toEqual({ errorCode: ERRORS.SMS_CODE_INVALID.code, errorMessage: ERRORS.SMS_CODE_INVALID.message });
  });

  it('requires the image captcha, the platform header and a valid phone', async () => {
    const client = new Client(server.baseUrl);
    const noCaptcha = await client.request('GET', `${API.smsSend}?phone=${ADMIN_PHONE}&purpose=login`, undefined, { [HEADER_PLATFORM]: 'web' });
    expect(noCaptcha.body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    const badCaptcha = await client.request(
      'GET',
      `${API.smsSend}?phone=${ADMIN_PHONE}&purpose=login&captchaId=nope&captchaCode=abcd`,
      undefined,
      { [HEADER_PLATFORM]: 'web' },
    );
    expect(badCaptcha.body).toMatchObject({ errorCode: ERRORS.CAPTCHA_INVALID.code });
    expect((await sendCode(client, ADMIN_PHONE, { platform: false })).body).toMatchObject({ errorCode: ERRORS.PLATFORM_HEADER_REQUIRED.code });
    expect((await sendCode(client, '12345')).body).toMatchObject({ errorCode: ERRORS.PHONE_INVALID.code });
    // bindPhone needs a session.
    expect((await sendCode(client, '13711112222', { purpose: 'bindPhone' })).status).toBe(401);
  });

  it('limits sends per phone (resend interval, hourly cap) and per address', async () => {
    const phone = '13655556666';
    expect((await sendCode(new Client(server.baseUrl), phone)).status).toBe(200);
    expect((await sendCode(new Client(server.baseUrl), phone)).body).toMatchObject({ errorCode: ERRORS.SMS_TOO_FREQUENT.code });
    for (let i = 1; i < POLICY.smsPerPhonePerHour; i++) {
      await waitOutResend();
      expect((await sendCode(new Client(server.baseUrl), phone)).status).toBe(200);
    }
    await waitOutResend();
    expect((await sendCode(new Client(server.baseUrl), phone)).body).toMatchObject({ errorCode: ERRORS.SMS_TOO_FREQUENT.code });

    const limited = await startServer({ trustProxy: ['loopback'], accounts: { ...POLICY, smsPerAddressPerHour: 2 } });
    try {
      const send = async (p: string) => {
        const c = new Client(limited.baseUrl);
        const { captchaId, answer } = await solveCaptcha(limited, c);
        const q = new URLSearchParams({ phone: p, purpose: 'login', captchaId, captchaCode: answer });
        return c.request('GET', `${API.smsSend}?${q}`, undefined, { [HEADER_PLATFORM]: 'web', 'x-forwarded-for': '10.9.9.9' });
      };
      expect((await send('13600000001')).status).toBe(200);
      expect((await send('13600000002')).status).toBe(200);
      expect((await send('13600000003')).body).toMatchObject({ errorCode: ERRORS.SMS_TOO_FREQUENT.code });
    } finally {
      await limited.close();
    }
  });
});

describe('phone binding', () => {
  const ADMIN_PASSWORD = encryptPassword('Admin@2024');
  const bind = (client: Client, body: Record<string, unknown>) => client.post(API.phoneValidate, { password: ADMIN_PASSWORD, ...body });

  it('replacing the bound phone takes the login password and a code sent to the phone bound now (issue 44)', async () => {
    const admin = await loggedInClient(server);
    expect((await admin.post<{ data: UserDetails }>(API.userDetails)).body.data).toMatchObject({ phone: ADMIN_PHONE, smsDelivery: true });
    const newPhone = '13511112222';
    // The tests above used up the admin phone's hourly sends.
    await elapse(3600_000);
    let since = Date.now();
    expect((await sendCode(admin, newPhone, { purpose: 'bindPhone' })).status).toBe(200);
    const code = (await readSmsCode(server, newPhone, since))!;
    // Neither the password nor the old phone: refused, and the code stays usable.
    expect((await admin.post(API.phoneValidate, { phone: newPhone, code })).body).toMatchObject({ errorCode: ERRORS.VALIDATION.code });
    expect((await bind(admin, { phone: newPhone, code, password: encryptPassword('Wrong@2024') })).body).toMatchObject({ errorCode: ERRORS.PASSWORD_WRONG.code, errorMessage: '登录密码错误' });
    expect((await bind(admin, { phone: newPhone, code })).body).toMatchObject({ errorCode: ERRORS.OLD_PHONE_CODE_REQUIRED.code, errorMessage: '请填写原手机号收到的短信验证码' });
    // The old phone's code goes only to the phone bound now.
    expect((await sendCode(admin, '13522223333', { purpose: 'verifyPhone' })).body).toMatchObject({ errorCode: ERRORS.NOT_BOUND_PHONE.code });
    expect((await sendCode(new Client(server.baseUrl), ADMIN_PHONE, { purpose: 'verifyPhone' })).status).toBe(401);
    since = Date.now();
    expect((await sendCode(admin, ADMIN_PHONE, { purpose: 'verifyPhone' })).body).toMatchObject({ data: { expiresIn: 600 } });
    const oldCode = (await readSmsCode(server, ADMIN_PHONE, since))!;
    // A wrong old code uses up neither code.
    const wrongOld = oldCode === '000000' ? '111111' : '000000';
    expect((await bind(admin, { phone: newPhone, code, oldCode: wrongOld })).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
    const wrongNew = code === '000000' ? '111111' : '000000';
    expect((await bind(admin, { phone: newPhone, code: wrongNew, oldCode })).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
    expect((await bind(admin, { phone: newPhone, code, oldCode })).status).toBe(200);
    expect((await admin.post<{ data: UserDetails }>(API.userDetails)).body.data.phone).toBe(newPhone);
    // The new phone now logs in by SMS; a login code cannot bind.
    await waitOutResend();
    since = Date.now();
    await sendCode(new Client(server.baseUrl), newPhone);
    const loginCode = (await readSmsCode(server, newPhone, since))!;
    expect((await bind(admin, { phone: '13522224444', code: loginCode, oldCode: loginCode })).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
    expect((await bind(admin, { phone: newPhone, code: loginCode })).body).toMatchObject({ errorCode: ERRORS.PHONE_SAME_AS_OLD.code });

    // The member's phone cannot be taken over.
    await waitOutResend();
    since = Date.now();
    await sendCode(admin, '13900000000', { purpose: 'bindPhone' });
    await sendCode(admin, newPhone, { purpose: 'verifyPhone' });
    const takeover = (await readSmsCode(server, '13900000000', since))!;
    const proof = (await readSmsCode(server, newPhone, since))!;
    expect((await bind(admin, { phone: '13900000000', code: takeover, oldCode: proof })).body).toMatchObject({ errorCode: ERRORS.PHONE_IN_USE.code });
  });

  it('a first phone needs the password but no old code', async () => {
    const tenantId = await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id);
    await addUser(server, tenantId, 'nophone', 'Nophone@2024');
    const user = await loggedInClient(server, { username: 'nophone', password: 'Nophone@2024' });
    const phone = '13533334444';
    const since = Date.now();
    await sendCode(user, phone, { purpose: 'bindPhone' });
    const code = (await readSmsCode(server, phone, since))!;
    expect((await user.post(API.phoneValidate, { phone, code, password: encryptPassword('Admin@2024') })).body).toMatchObject({ errorCode: ERRORS.PASSWORD_WRONG.code });
    expect((await user.post(API.phoneValidate, { phone, code, password: encryptPassword('Nophone@2024') })).status).toBe(200);
    expect((await user.post<{ data: UserDetails }>(API.userDetails)).body.data.phone).toBe(phone);
  });

  it('counts wrong passwords like login failures', async () => {
    const throttled = await startServer({ accounts: { ...POLICY, loginSlowAfter: 2, loginDelayBaseMs: 5000, loginDelayMaxMs: 5000 } });
    try {
      const admin = await loggedInClient(throttled);
      const body = { phone: '13544445555', code: '123456', oldCode: '123456' };
      expect((await admin.post(API.phoneValidate, { ...body, password: encryptPassword('Guess@0001') })).body).toMatchObject({ errorCode: ERRORS.PASSWORD_WRONG.code });
      expect((await admin.post(API.phoneValidate, { ...body, password: encryptPassword('Guess@0002') })).body).toMatchObject({ errorCode: ERRORS.PASSWORD_WRONG.code });
      const third = await admin.post(API.phoneValidate, { ...body, password: ADMIN_PASSWORD });
      expect(third.body).toMatchObject({ errorCode: ERRORS.TOO_MANY_ATTEMPTS.code });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await throttled.close();
    }
  });
});
