/**
 * Logging a cookie jar in through the real captcha flow, for the headless commands (sync, replay) and
 * tests: with DRIVE_TEST_HOOKS=1 the server appends every issued captcha's answer to
 * DATA_DIR/test-outbox/captcha.jsonl; a server without hooks needs a session cookie instead
 * (`--cookie 'sid=...'`).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { DataOf } from '../../common/api/endpoint';
import { AUTH, type LoginForm } from '../../common/api/endpoints/auth';
import { clientHeaders } from '../../common/api/client-env';
import { encryptPassword } from '../../common/crypto/password-cipher';
import type { CookieFetch } from './cookie-fetch';

export interface LoginOptions {
  serverUrl: string;
  username: string;
  password: string;
  /** The server's captcha outbox (DATA_DIR/test-outbox/captcha.jsonl), written under DRIVE_TEST_HOOKS=1. */
  captchaOutbox: string;
  signal?: AbortSignal;
}

/** Logs in through the real captcha flow; the session cookie lands in `jar`. */
export async function loginWithOutbox(jar: CookieFetch, options: LoginOptions): Promise<void> {
  const base = options.serverUrl.replace(/\/+$/, '');
  const signal = options.signal ?? AbortSignal.timeout(30_000);
  const headers = clientHeaders('desktop', 'internal');
  const captchaRes = await jar.fetch(base + AUTH.captcha.path, { method: AUTH.captcha.method, headers, signal });
  if (!captchaRes.ok) throw new Error(`captcha request failed: HTTP ${captchaRes.status}`);
  const { data } = (await captchaRes.json()) as { data: DataOf<typeof AUTH.captcha> };
  let answer: string | undefined;
  const lines = (await fsp.readFile(options.captchaOutbox, 'utf8')).trim().split('\n').reverse();
  for (const line of lines) {
    const entry = JSON.parse(line) as { captchaId: string; answer: string };
    if (entry.captchaId === data.captchaId) {
      answer = entry.answer;
      break;
    }
  }
  if (!answer) throw new Error(`captcha ${data.captchaId} not found in ${options.captchaOutbox} (is DRIVE_TEST_HOOKS=1 set?)`);
  // The entry is form-encoded (AUTH.login.encoding).
  const form: Required<Pick<LoginForm, 'username' | 'password' | 'captchaId' | 'captchaCode'>> = {
    username: options.username,
    password: encryptPassword(options.password),
    captchaId: data.captchaId,
    captchaCode: answer,
  };
  const res = await jar.fetch(base + AUTH.login.path, {
    method: AUTH.login.method,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
    signal,
  });
  const text = await res.text();
  if (!res.ok || !jar.cookie()) throw new Error(`login failed: HTTP ${res.status} ${text.slice(0, 200)}`);
}

/** The captcha outbox of a server started with DATA_DIR=dataDir and DRIVE_TEST_HOOKS=1. */
export function captchaOutboxOf(dataDir: string): string {
  return path.join(dataDir, 'test-outbox', 'captcha.jsonl');
}
