import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import type { CaptchaImage, LoginResult, SmsSendResult } from '../types';

/** Logging in and out, captchas, SMS codes and 忘记密码: every call here is public (spec §7 login calls). */

/** A form or query field: the services check the content and answer with the specific coded error. */
const Field = Type.String({ maxLength: 512 });

/**
 * Fields of the form-encoded `POST /spacex/login?ajax=true`. The password is AES-encrypted with
 * `encryptPassword` (common/crypto). `captchaId` + `captchaCode` answer `GET /api/captcha/generateBase64`;
 * the captcha is single-use and consumed before the password is looked at, so a captured login request
 * (its encrypted password bound to that one-time captcha) cannot be replayed. Every field is optional
 * in the schema: a missing one has its own error code (a missing captcha: CAPTCHA_REQUIRED).
 * `tenant` (ours) is the tenant id of the login page `/login/{id}` (spec §2). Accounts are unique per
 * tenant (case-insensitively); without a tenant the account name is looked up in every tenant and the
 * password decides between namesakes (LOGIN_TENANT_REQUIRED when it fits more than one).
 *
 * Login throttling (server side, documented here once for both sides):
 * - the image captcha is required on EVERY password login, so "captcha after N failures" is always on;
 * - failures are counted per account name (lower-cased, whether or not the account exists) and per
 *   client address; after LOGIN_SLOW_AFTER failures of the name, or LOGIN_ADDRESS_SLOW_AFTER from the
 *   address, each further attempt must wait a delay that doubles per failure (LOGIN_DELAY_BASE_MS ..
 *   LOGIN_DELAY_MAX_MS), else TOO_MANY_ATTEMPTS (with Retry-After); a success clears the name's count,
 *   never the address's (an attacker's own account must not reset it);
 * - after LOGIN_LOCK_AFTER failures of one account name it is locked until an admin unlocks it. Names
 *   that do not exist "lock" the same way, so the ACCOUNT_LOCKED answer reveals nothing. An account an
 *   admin locked answers LOGIN_FAILED to a wrong password and ACCOUNT_LOCKED only to the right one.
 * - unknown account and wrong password: same status, code, message, and the same scrypt work.
 * - a client sending `X-Network-Env: public` (the public-network build) is refused with
 *   OUTER_LOGIN_REFUSED, after the password check, when the account lacks outer login.
 */
export const LoginBody = Type.Object({
  username: Type.Optional(Field),
  password: Type.Optional(Field),
  captchaId: Type.Optional(Field),
  captchaCode: Type.Optional(Field),
  tenant: Type.Optional(Field),
});
export type LoginForm = Static<typeof LoginBody>;

/**
 * `GET /spacex/captcha/validate` query. A wrong answer uses the captcha up; a right one leaves it usable
 * once more (by login or SMS send).
 */
export const CaptchaValidateQuery = Type.Object({ captchaId: Field, captchaCode: Field });
export type CaptchaValidateQuery = Static<typeof CaptchaValidateQuery>;

/**
 * What a sent SMS code is for: logging in (public), binding a phone to the caller (session required),
 * 忘记密码, and verifyPhone: proving the caller still holds the phone bound now before 更换手机号
 * (session required; only to that phone, else NOT_BOUND_PHONE).
 */
export const SmsPurposeSchema = Type.Enum(['login', 'bindPhone', 'resetPassword', 'verifyPhone'], { type: 'string' });
export type SmsPurpose = Static<typeof SmsPurposeSchema>;

/**
 * `GET /api/captcha/sms/send` query. The image captcha is required (and used up) so the endpoint cannot
 * be used to bomb phones; sends are further limited per phone and per client address. For purpose
 * login the answer is the same whether or not an account has this phone (no enumeration); the code is
 * only delivered to a phone that belongs to an account. It changes state, so like keepOnUpload it
 * requires the X-Client-Platform header (no cross-site GET can add it).
 */
export const SmsSendQuery = Type.Object({ phone: Field, purpose: SmsPurposeSchema, captchaId: Field, captchaCode: Field });
export type SmsSendQuery = Static<typeof SmsSendQuery>;

/**
 * SMS login. Codes are 6 digits, valid ≤ 10 minutes, single use, stored hashed; a code dies after
 * SMS_MAX_ATTEMPTS wrong tries. Unknown phone and wrong code answer the same SMS_CODE_INVALID.
 */
export const SmsLoginBody = Type.Object({ phone: Field, code: Field });
export type SmsLoginRequest = Static<typeof SmsLoginBody>;

/**
 * 忘记密码 (ours). `code` is the SMS code sent with purpose resetPassword to the account's bound phone;
 * `value` the new password, AES-encrypted like the password change's. The §5 rules apply
 * (PASSWORD_INVALID, checked before the code is used up); a wrong, used or expired code, or a phone no
 * account has, answers SMS_CODE_INVALID alike. On success every session of the account ends and a lock
 * by login failures is lifted (an admin's lock stays). The user then logs in with the new password.
 */
export const PasswordResetBody = Type.Object({ phone: Field, code: Field, value: Field });
export type PasswordResetRequest = Static<typeof PasswordResetBody>;

const pub = 'public' as const;

export const AUTH = {
  /** A new single-use image captcha (never cached). */
  captcha: endpoint({ method: 'GET', path: API.captcha, access: pub, action: null, response: data<CaptchaImage>() }),
  /** Form-encoded (spec §7): LoginForm → LoginResult and the session cookie. */
  login: endpoint({ method: 'POST', path: API.login, access: pub, action: 'auth.login', encoding: 'form', body: LoginBody, response: data<LoginResult>() }),
  /** `true`, or CAPTCHA_INVALID. */
  captchaValidate: endpoint({ method: 'GET', path: API.captchaValidate, access: pub, action: null, query: CaptchaValidateQuery, response: data<true>() }),
  /** Public for SMS login; purpose bindPhone checks the session itself. */
  smsSend: endpoint({ method: 'GET', path: API.smsSend, access: pub, action: null, query: SmsSendQuery, response: data<SmsSendResult>() }),
  /** SMS login → LoginResult and the session cookie. */
  smsValidate: endpoint({ method: 'POST', path: API.smsValidate, access: pub, action: 'auth.smsLogin', body: SmsLoginBody, response: data<LoginResult>() }),
  /** Works with or without a session, so a client can always reset to a clean state. */
  logout: endpoint({ method: 'POST', path: API.logout, access: pub, action: 'auth.logout', whileGestureLocked: true, response: data<null>() }),
  /** 忘记密码 by an SMS code to the bound phone (public: the user cannot log in). */
  passwordReset: endpoint({ method: 'POST', path: API.passwordReset, access: pub, action: 'account.passwordReset', body: PasswordResetBody, response: data<null>() }),
};
