import { createHash, randomBytes } from 'node:crypto';
import { ERRORS } from '../../common/api/errors';
import type { LoginForm, LoginResult } from '../../common/api/types';
import { decryptPassword } from '../../common/crypto/password-cipher';
import { AppError } from '../http/app-error';
import type { SessionRepository } from '../repositories/session-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { CaptchaService } from './captcha-service';
import type { Caller } from './caller';
import { dummyVerify, verifyPassword } from './password-hash';

export const HOME_URL = '/main/file/personal';

/** Sessions are extended at most this often, so an active user does not cause a write per request. */
const EXTEND_EVERY_MS = 60_000;

/** The database stores only SHA-256(token): a leaked database does not yield usable cookies. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface AuthenticatedSession {
  caller: Caller;
  /** Set when the expiry moved forward: the cookie should be sent again with the new lifetime. */
  extendedUntil: number | null;
}

export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly captchas: CaptchaService,
    private readonly sessionTtlMs: number,
  ) {}

  /** Returns the new session token (for the cookie) and the §2 login result. */
  async login(form: Partial<LoginForm>, now = Date.now()): Promise<{ token: string; result: LoginResult }> {
    if (!form.captchaId || !form.captchaCode) throw new AppError(ERRORS.CAPTCHA_REQUIRED);
    // The captcha is consumed before anything else, so each attempt costs a fresh captcha.
    if (!(await this.captchas.consume(form.captchaId, form.captchaCode, now))) throw new AppError(ERRORS.CAPTCHA_INVALID);

    const password = decryptPassword(form.password ?? '') ?? '';
    const user = form.username ? await this.users.findByUsername(form.username) : undefined;
    if (!user) {
      await dummyVerify(password);
      throw new AppError(ERRORS.LOGIN_FAILED);
    }
    if (!(await verifyPassword(password, user.password_hash))) throw new AppError(ERRORS.LOGIN_FAILED);

    const token = randomBytes(32).toString('base64url');
    await this.sessions.insert({
      id: hashToken(token),
      user_id: user.id,
      tenant_id: user.tenant_id,
      created_at: now,
      expires_at: now + this.sessionTtlMs,
      last_seen_at: now,
    });
    return { token, result: { passwordChangeType: user.must_change_password ? 1 : 0, homeUrl: HOME_URL } };
  }

  /** The caller behind a cookie token, or null; slides the expiry forward while the user is active. */
  async authenticate(token: string, now = Date.now()): Promise<AuthenticatedSession | null> {
    const idHash = hashToken(token);
    const session = await this.sessions.findValid(idHash, now);
    if (!session) return null;
    let extendedUntil: number | null = null;
    if (now - session.last_seen_at >= EXTEND_EVERY_MS) {
      extendedUntil = now + this.sessionTtlMs;
      await this.sessions.extend(idHash, now, extendedUntil);
    }
    const u = session.user;
    return {
      caller: {
        userId: u.id,
        tenantId: u.tenant_id,
        username: u.username,
        role: u.role,
        mustChangePassword: u.must_change_password === 1,
      },
      extendedUntil,
    };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.sessions.delete(hashToken(token));
  }
}
