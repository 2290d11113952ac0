import { API } from '../../../common/api/paths';
import type { CaptchaImage, LoginForm, LoginResult } from '../../../common/api/types';
import { encryptPassword } from '../../../common/crypto/password-cipher';
import { api } from '../../lib/api';

export function fetchCaptcha(): Promise<CaptchaImage> {
  return api.get<CaptchaImage>(API.captcha);
}

/** Form-encoded login; the password is AES-encrypted first (common/crypto). */
export function login(fields: { username: string; password: string; captchaId: string; captchaCode: string }): Promise<LoginResult> {
  const form: LoginForm = {
    username: fields.username.trim(),
    password: encryptPassword(fields.password),
    captchaId: fields.captchaId,
    captchaCode: fields.captchaCode.trim(),
  };
  return api.postForm<LoginResult>(API.login, { ...form });
}
