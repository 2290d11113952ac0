import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import type { PasswordResetRequest } from '../../common/api/endpoints/auth';
import type { UserDetails } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import { ADMIN, Client, loggedInClient, login, readSmsCode, solveCaptcha, startServer, withDb, type TestServer } from './helpers';

/** 忘记密码 by SMS against the real server; the test gateway writes each message to the outbox. */
const POLICY = { smsCodeTtlMs: 600_000, smsResendMs: 60_000, smsPerPhonePerHour: 5, smsPerAddressPerHour: 1000, smsMaxAttempts: 3 };
const ADMIN_PHONE = '13800000000';
const NEW_PASSWORD = 'Reset#2026a';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ trustProxy: ['loopback'], accounts: POLICY });
});
afterAll(async () => {
  await server.close();
});

let addressSeq = 0;
async function sendCode(phone: string, purpose = 'resetPassword') {
  const client = new Client(server.baseUrl);
  const { captchaId, answer } = await solveCaptcha(server, client);
  const q = new URLSearchParams({ phone, purpose, captchaId, captchaCode: answer });
  return client.request('GET', `${API.smsSend}?${q}`, undefined, { [HEADER_PLATFORM]: 'web', 'x-forwarded-for': `10.2.0.${++addressSeq}` });
}
const reset = (req: PasswordResetRequest) => new Client(server.baseUrl).post(API.passwordReset, req);
const waitOutResend = () => withDb(server, (db) => db.prepare('update sms_codes set created_at = created_at - ?, expires_at = expires_at - ?').run(POLICY.smsResendMs, POLICY.smsResendMs));
const smsCount = (phone: string) => withDb(server, (db) => (db.prepare('select count(*) as n from sms_codes where phone = ?').get(phone) as { n: number }).n);

describe('忘记密码 by SMS', () => {
  it('refuses a password breaking the rules without using up the code, then sets the new one: sessions end, the old password stops working', async () => {
    const session = await loggedInClient(server);
    const since = Date.now();
    expect((await sendCode(ADMIN_PHONE)).status).toBe(200);
    const code = (await readSmsCode(server, ADMIN_PHONE, since))!;
    expect(code).toMatch(/^\d{6}$/);

    const weak = await reset({ phone: ADMIN_PHONE, code, value: encryptPassword('short') });
    expect(weak.body).toMatchObject({ errorCode: ERRORS.PASSWORD_INVALID.code });

    const ok = await reset({ phone: ADMIN_PHONE, code, value: encryptPassword(NEW_PASSWORD) });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: null });
    // the session opened with the old password is over
    expect((await session.post(API.userDetails)).status).toBe(401);
    expect((await login(server, new Client(server.baseUrl), ADMIN)).body).toMatchObject({ errorCode: expect.any(String) });
    const fresh = new Client(server.baseUrl);
    expect((await login(server, fresh, { username: ADMIN.username, password: NEW_PASSWORD })).status).toBe(200);
    expect((await fresh.post<{ data: UserDetails }>(API.userDetails)).body.data.website).toBe('admin');

    // the code is single use
    const again = await reset({ phone: ADMIN_PHONE, code, value: encryptPassword('Another#2026b') });
    expect(again.body).toEqual({ errorCode: ERRORS.SMS_CODE_INVALID.code, errorMessage: ERRORS.SMS_CODE_INVALID.message });
  });

  it('takes only a code sent for a reset: a login code does not reset, a reset code does not log in', async () => {
    await waitOutResend();
    const since = Date.now();
    await sendCode(ADMIN_PHONE, 'login');
    const loginCode = (await readSmsCode(server, ADMIN_PHONE, since))!;
    expect((await reset({ phone: ADMIN_PHONE, code: loginCode, value: encryptPassword('Another#2026b') })).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });

    await waitOutResend();
    const since2 = Date.now();
    await sendCode(ADMIN_PHONE);
    const resetCode = (await readSmsCode(server, ADMIN_PHONE, since2))!;
    expect((await new Client(server.baseUrl).post(API.smsValidate, { phone: ADMIN_PHONE, code: resetCode })).body).toMatchObject({ errorCode: ERRORS.SMS_CODE_INVALID.code });
  });

  it('answers a phone no account has exactly like a wrong code, sends it nothing, and throttles sends like SMS login', async () => {
    const stranger = '13900000001';
    const since = Date.now();
    const sent = await sendCode(stranger);
    expect(sent.status).toBe(200);
    expect(await readSmsCode(server, stranger, since, 500)).toBeNull();
    expect((await reset({ phone: stranger, code: '123456', value: encryptPassword(NEW_PASSWORD) })).body).toEqual({
      errorCode: ERRORS.SMS_CODE_INVALID.code,
      errorMessage: ERRORS.SMS_CODE_INVALID.message,
    });
    // a second send within the resend interval is refused
    expect((await sendCode(stranger)).body).toMatchObject({ errorCode: ERRORS.SMS_TOO_FREQUENT.code });
    expect(await smsCount(stranger)).toBe(1);
  });
});
