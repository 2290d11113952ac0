import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { LoginResult, SmsSendResult, UserDetails } from '../../common/api/types';
import { Client, loggedInClient, readSmsCode, solveCaptcha, startServer, withDb, type Answer, type TestServer } from './helpers';

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
  server = await startServer({ trustProxy: true, accounts: POLICY });
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

    const limited = await startServer({ trustProxy: true, accounts: { ...POLICY, smsPerAddressPerHour: 2 } });
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
  it('binds a phone proven by its code; a code sent for login cannot bind; a taken phone is refused', async () => {
    const admin = await loggedInClient(server);
    const newPhone = '13511112222';
    await waitOutResend();
    let since = Date.now();
    expect((await sendCode(admin, newPhone, { purpose: 'bindPhone' })).status).toBe(200);
    const code = (await readSmsCode(server, newPhone, since))!;
    const wrong = await admin.post(API.phoneValidate, { phone: newPhone, code: code === '000000' ? '111111' : '000000' });
    expect(wrong.body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
    expect((await admin.post(API.phoneValidate, { phone: newPhone, code })).status).toBe(200);
    expect((await admin.post<{ data: UserDetails }>(API.userDetails)).body.data.phone).toBe(newPhone);
    // The new phone now logs in by SMS.
    await waitOutResend();
    since = Date.now();
    await sendCode(new Client(server.baseUrl), newPhone);
    const loginCode = (await readSmsCode(server, newPhone, since))!;
    expect((await admin.post(API.phoneValidate, { phone: newPhone, code: loginCode })).body).toMatchObject({
      errorCode: ERRORS.SMS_CODE_INVALID.code,
    });

    // The member's phone cannot be taken over.
    await waitOutResend();
    since = Date.now();
    await sendCode(admin, '13900000000', { purpose: 'bindPhone' });
    const takeover = (await readSmsCode(server, '13900000000', since))!;
    expect((await admin.post(API.phoneValidate, { phone: '13900000000', code: takeover })).body).toMatchObject({
      errorCode: ERRORS.PHONE_IN_USE.code,
    });
  });
});
