import { createHash, randomBytes } from 'node:crypto';
import type { NetworkEnv } from '../../common/api/client-env';
import { ERRORS } from '../../common/api/errors';
import { DEFAULT_HOME_PAGE } from '../../common/api/tenant';
import type { LoginForm, SmsLoginRequest, SmsSendQuery } from '../../common/api/endpoints/auth';
import type { LoginResult, PasswordChangeType, SmsSendResult } from '../../common/api/types';
import { decryptPassword } from '../../common/crypto/password-cipher';
import type { UsersTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { SessionRepository } from '../repositories/session-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { AccountPolicy } from './account-policy';
import type { CaptchaService } from './captcha-service';
import type { Caller } from './caller';
import type { LoginThrottle } from './login-throttle';
import { assertPhone, type SmsCodeService } from './sms-code-service';
import { dummyVerify, verifyPassword } from './password-hash';
import { actionLog, actorOfUser, PLATFORM_TENANT, type Actor } from './action-log/recorder';

/** Sessions are extended at most this often, so an active user does not cause a write per request. */
const EXTEND_EVERY_MS = 60_000;

const DAY_MS = 24 * 3600 * 1000;

/** The database stores only SHA-256(token): a leaked database does not yield usable cookies. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** 1 = initial password, 2 = older than the expiry days, 0 = fine (see PasswordChangeType). */
export function passwordChangeTypeOf(user: UsersTable, expiryDays: number, now: number): PasswordChangeType {
  if (user.must_change_password) return 1;
  if (expiryDays > 0 && (user.password_changed_at ?? user.created_at) + expiryDays * DAY_MS <= now) return 2;
  return 0;
}

export type SessionLookup =
  | { kind: 'none' }
  /** The server ended it (account locked, outer login withdrawn): answer 400sec-core-301. */
  | { kind: 'ended' }
  | {
      kind: 'valid';
      caller: Caller;
      /** Set when the expiry moved forward: the cookie should be sent again with the new lifetime. */
      extendedUntil: number | null;
    };

/** Where a login request came from: the throttle counts per address, outer login looks at the network. */
export interface LoginContext {
  address: string;
  /** The client's X-Network-Env header; FORCE_NETWORK_ENV wins over it. */
  networkEnv: NetworkEnv;
  /** The browser's User-Agent header: the device list (账号安全) names the session by it. */
  userAgent?: string;
}

/** Longer User-Agents are cut: the device list needs their start, a client must not fill the table. */
const USER_AGENT_MAX = 512;

export interface AuthServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  captchas: CaptchaService;
  throttle: LoginThrottle;
  smsCodes: SmsCodeService;
  policy: AccountPolicy;
  sessionTtlMs: number;
  /** The home page the login result names: the user's tenant's (ConfigService.homeUrl); absent: the default. */
  homeUrlOf?: (user: Pick<UsersTable, 'tenant_id' | 'role'>) => Promise<string>;
}

export class AuthService {
  constructor(private readonly deps: AuthServiceDeps) {}

  effectiveNetwork(claimed: NetworkEnv): NetworkEnv {
    return this.deps.policy.forceNetworkEnv ?? claimed;
  }

  /** Returns the new session token (for the cookie) and the §2 login result. Rules: LoginForm. */
  async login(form: LoginForm, ctx: LoginContext, now = Date.now()): Promise<{ token: string; result: LoginResult }> {
    const name = form.username ?? '';
    // Recorded whatever happens next: a failed login is as much on record as a successful one.
    actionLog.record({ action: 'auth.login', actor: await this.loginActor(name, form.tenant || undefined, ctx) });
    if (!form.captchaId || !form.captchaCode) throw new AppError(ERRORS.CAPTCHA_REQUIRED);
    // The clock is read again once it is this attempt's turn.
    return this.deps.throttle.serialize(name, () => this.passwordLogin(form, name, ctx, Math.max(now, Date.now())));
  }

  private async passwordLogin(form: LoginForm, name: string, ctx: LoginContext, now: number) {
    await this.deps.throttle.check(name, ctx.address, now);
    // The captcha is consumed before the password is looked at: each attempt costs a fresh captcha,
    // and a captured request cannot be replayed.
    if (!(await this.deps.captchas.consume(form.captchaId ?? '', form.captchaCode ?? '', now))) throw new AppError(ERRORS.CAPTCHA_INVALID);

    const password = decryptPassword(form.password ?? '') ?? '';
    // Accounts are unique per tenant: the login page of a tenant (/login/{id}) names it; without it the
    // password decides between namesakes of several tenants (each costs one scrypt check).
    const candidates = name ? await this.deps.users.findLoginCandidates(name, form.tenant || undefined) : [];
    const matched: UsersTable[] = [];
    for (const candidate of candidates) if (await verifyPassword(password, candidate.password_hash)) matched.push(candidate);
    if (candidates.length === 0) await dummyVerify(password);
    const user = matched[0];
    if (!user) {
      await this.deps.throttle.recordFailure(name, ctx.address, now);
      throw new AppError(ERRORS.LOGIN_FAILED);
    }
    if (matched.length > 1) throw new AppError(ERRORS.LOGIN_TENANT_REQUIRED);
    // Only the right password learns that an admin locked the account (no enumeration by locking).
    if (user.locked) throw new AppError(ERRORS.ACCOUNT_LOCKED);
    return this.openSession(user, ctx, now);
  }

  /**
   * Who a login attempt is by: the account named, in its tenant; a name no account has, or one that
   * several tenants have (the password has not decided yet), goes to the platform's chain (it belongs
   * to no one tenant), with the name as typed.
   */
  private async loginActor(name: string, tenantId: string | undefined, ctx: LoginContext): Promise<Actor> {
    const candidates = name ? await this.deps.users.findLoginCandidates(name, tenantId) : [];
    const user = candidates.length === 1 ? candidates[0] : undefined;
    const networkEnv = this.effectiveNetwork(ctx.networkEnv);
    return user ? actorOfUser(user, networkEnv) : { tenantId: PLATFORM_TENANT, id: null, account: name, role: '', networkEnv };
  }

  /**
   * `GET /api/captcha/sms/send` (rules: SmsSendQuery). The image captcha is used up first, so phones
   * cannot be bombed by a script; a login code reaches only a phone that belongs to an account, with
   * the same answer either way. A bindPhone code needs a session and goes to the phone being bound.
   */
  async sendSmsCode(query: SmsSendQuery, caller: Caller | null, address: string, now = Date.now()): Promise<SmsSendResult> {
    const forCaller = query.purpose === 'bindPhone' || query.purpose === 'verifyPhone';
    if (forCaller && !caller) throw new AppError(ERRORS.UNAUTHORIZED);
    assertPhone(query.phone);
    if (!(await this.deps.captchas.consume(query.captchaId, query.captchaCode, now))) throw new AppError(ERRORS.CAPTCHA_INVALID);
    if (query.purpose === 'verifyPhone') {
      // Proof of the phone bound now (更换手机号): to that phone only, never one the caller names.
      const user = await this.deps.users.findInTenant(caller!.tenantId, caller!.userId);
      if (!user?.phone || user.phone !== query.phone) throw new AppError(ERRORS.NOT_BOUND_PHONE);
    }
    const deliver = forCaller || (await this.deps.users.findByPhone(query.phone)) !== undefined;
    return this.deps.smsCodes.issue({ phone: query.phone, purpose: query.purpose, userId: forCaller ? caller!.userId : null, deliver, address }, now);
  }

  /** SMS login: the code proves the phone; then the same checks as a password login (lock, outer login). */
  async smsLogin(req: SmsLoginRequest, ctx: LoginContext, now = Date.now()): Promise<{ token: string; result: LoginResult }> {
    const user = await this.deps.users.findByPhone(req.phone);
    const networkEnv = this.effectiveNetwork(ctx.networkEnv);
    // The phone is not an account name: an attempt on a phone no account has is kept by its last digits only.
    actionLog.record({
      action: 'auth.smsLogin',
      actor: user ? actorOfUser(user, networkEnv) : { tenantId: PLATFORM_TENANT, id: null, account: `手机尾号${req.phone.slice(-4)}`, role: '', networkEnv },
    });
    await this.deps.smsCodes.consume(req.phone, 'login', null, req.code, now);
    if (!user) throw new AppError(ERRORS.SMS_CODE_INVALID);
    return this.openSession(user, ctx, now);
  }

  /**
   * Opens a session for a user whose credentials were already proven (password or SMS code): refuses
   * an account locked by failures, and the public network without outer login.
   */
  async openSession(user: UsersTable, ctx: LoginContext, now: number): Promise<{ token: string; result: LoginResult }> {
    if (user.locked || (await this.deps.throttle.isLocked(user.username))) throw new AppError(ERRORS.ACCOUNT_LOCKED);
    const networkEnv = this.effectiveNetwork(ctx.networkEnv);
    if (networkEnv === 'public' && !user.outer_login) throw new AppError(ERRORS.OUTER_LOGIN_REFUSED);
    await this.deps.throttle.clearAccount(user.username);

    const token = randomBytes(32).toString('base64url');
    await this.deps.sessions.insert({
      id: hashToken(token),
      user_id: user.id,
      tenant_id: user.tenant_id,
      created_at: now,
      expires_at: now + this.deps.sessionTtlMs,
      last_seen_at: now,
      network_env: networkEnv,
      public_id: randomBytes(16).toString('base64url'),
      user_agent: ctx.userAgent ? ctx.userAgent.slice(0, USER_AGENT_MAX) : null,
      address: ctx.address || null,
    });
    const homeUrl = this.deps.homeUrlOf ? await this.deps.homeUrlOf(user) : DEFAULT_HOME_PAGE;
    return { token, result: { passwordChangeType: passwordChangeTypeOf(user, this.deps.policy.passwordExpiryDays, now), homeUrl } };
  }

  /**
   * The caller behind a cookie token; slides the expiry forward while the user is active (and then
   * records `address`, the client's, for the device list).
   */
  async authenticate(token: string, now = Date.now(), address?: string): Promise<SessionLookup> {
    const idHash = hashToken(token);
    const session = await this.deps.sessions.findValid(idHash, now);
    if (!session) return { kind: 'none' };
    const u = session.user;
    if (session.ended_reason || u.locked) return { kind: 'ended' };
    let extendedUntil: number | null = null;
    if (now - session.last_seen_at >= EXTEND_EVERY_MS) {
      extendedUntil = now + this.deps.sessionTtlMs;
      await this.deps.sessions.extend(idHash, now, extendedUntil, address);
    }
    return {
      kind: 'valid',
      caller: {
        userId: u.id,
        tenantId: u.tenant_id,
        username: u.username,
        role: u.role,
        passwordChangeType: passwordChangeTypeOf(u, this.deps.policy.passwordExpiryDays, now),
        networkEnv: session.network_env === 'public' ? 'public' : 'internal',
        platformAdmin: u.platform_admin === 1 && u.role === 'admin',
        sessionId: idHash,
        gestureLocked: Number(session.gesture_locked ?? 0) === 1,
      },
      extendedUntil,
    };
  }

  /** Ends the session; recorded when there was one (a logout without a session changes nothing). */
  async logout(token: string | undefined, caller: Caller | null): Promise<void> {
    if (caller) actionLog.record({ action: 'auth.logout' });
    else actionLog.notAnAction();
    if (token) await this.deps.sessions.delete(hashToken(token));
  }
}
