import { ACCOUNT } from '../../../common/api/endpoints/account';
import { TENANT } from '../../../common/api/endpoints/tenant';
import { AUTH, type LoginForm, type PasswordResetRequest, type SmsLoginRequest } from '../../../common/api/endpoints/auth';
import type { LoginResult, TenantAlias } from '../../../common/api/types';
import { api } from '../../lib/api';
import { ERRORS } from '../../../common/api/errors';

/**
 * Form-encoded login; the password is AES-encrypted first (common/crypto). The cipher is loaded when
 * the user submits, not with the login page: the first screen shows sooner.
 */
export async function login(fields: { username: string; password: string; captchaId: string; captchaCode: string }): Promise<LoginResult> {
  const { encryptPassword } = await import('../../../common/crypto/password-cipher');
  const form: LoginForm = {
    username: fields.username.trim(),
    password: encryptPassword(fields.password),
    captchaId: fields.captchaId,
    captchaCode: fields.captchaCode.trim(),
  };
  // A tenant's own login page (/login/{id}, spec §2) names the tenant: accounts are unique per tenant.
  const tenant = /^\/login\/([^/?#]+)/.exec(window.location.pathname)?.[1];
  if (tenant) form.tenant = decodeURIComponent(tenant);
  return api.call(AUTH.login, form);
}

/**
 * `GET /spacex/captcha/validate` when the captcha field loses focus: true right, false wrong (the
 * server has used that captcha up), null when it could not be asked (offline: the login still checks).
 * Quiet: the form shows the answer under the field, not as a toast.
 */
export function validateCaptcha(captchaId: string, captchaCode: string): Promise<boolean | null> {
  return api.call(AUTH.captchaValidate, { captchaId, captchaCode: captchaCode.trim() }, { onError: () => undefined }).then(
    () => true,
    (error: unknown) => (error instanceof Error && 'errorCode' in error && (error as { errorCode: string }).errorCode === ERRORS.CAPTCHA_INVALID.code ? false : null),
  );
}

/** SMS login with the 6-digit code sent for purpose 'login'. */
export function smsLogin(request: SmsLoginRequest): Promise<LoginResult> {
  return api.call(AUTH.smsValidate, { phone: request.phone.trim(), code: request.code.trim() });
}

/** 忘记密码: the new password (AES-encrypted) with the code sent for purpose resetPassword. */
export async function resetPassword(fields: { phone: string; code: string; newPassword: string }, quietCodes: readonly string[]): Promise<unknown> {
  const { encryptPassword } = await import('../../../common/crypto/password-cipher');
  const body: PasswordResetRequest = { phone: fields.phone.trim(), code: fields.code.trim(), value: encryptPassword(fields.newPassword) };
  return api.call(AUTH.passwordReset, body, { quietCodes });
}

/** Records on the server that the user accepted the user agreement (needs the new session). */
export function readAgreement(): Promise<unknown> {
  return api.call(ACCOUNT.readAgreement);
}

/** A tenant's login page look (brand, background) by its id or alias: public, before any session. */
export function tenantAlias(idOrAlias: string, signal?: AbortSignal): Promise<TenantAlias> {
  return api.call(TENANT.alias, { id: idOrAlias }, { signal, onError: () => undefined });
}
