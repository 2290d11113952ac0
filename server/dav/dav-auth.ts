import net from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AccountPolicy } from '../services/account-policy';
import { passwordChangeTypeOf } from '../services/auth-service';
import type { DevicePasswordService } from '../services/device-password-service';
import type { LoginThrottle } from '../services/login-throttle';
import type { DavAuthenticate, DavAuthResult } from './context';
import { ERRORS } from '../../common/api/errors';
import type { UsersTable } from '../db/schema';
import type { UserRepository } from '../repositories/user-repository';
import type { ActionLogService } from '../services/action-log-service';
import { actorOfUser, newActionContext, PLATFORM_TENANT, type Actor } from '../services/action-log/recorder';

/**
 * Who a WebDAV request is (issue 39; docs/webdav.md, "Authentication"). WebDAV clients cannot pass the
 * web login's captcha, so each request carries `Authorization: Basic` with the account name and one of
 * the user's 设备密码 (device-password-service.ts). The answer is the same Caller the session guard
 * gives web requests, so every service call, permission and action-log record works unchanged.
 */

/** What the realm says in the client's password dialog (ASCII: header values are Latin-1). */
export const DAV_REALM = 'WebDAV';

/** Every refusal, by name: the tests and docs/webdav.md's table go by these. */
export const DAV_REFUSALS = {
  plainHttp: { status: 403, reason: 'WebDAV 只能通过 HTTPS 访问 / WebDAV requires HTTPS' },
  noCredentials: { status: 401, reason: '请用账号和设备密码登录（个人中心 → 账号安全 → 设备密码） / Sign in with your account and a device password' },
  wrongCredentials: { status: 401, reason: '账号或设备密码错误 / Wrong user name or device password' },
  tooManyAttempts: { status: 429, reason: '失败次数过多，请稍后再试 / Too many failed attempts, try again later' },
  accountLocked: { status: 403, reason: '账号已被锁定，请联系管理员解锁 / This account is locked' },
  passwordExpired: { status: 403, reason: '登录密码已过期或须修改，请先在网页上修改密码 / Your password must be changed: sign in on the web first' },
  outerLoginRefused: { status: 403, reason: '该账号未开通外网登录权限 / This account may not sign in from the public network' },
  davOff: { status: 403, reason: '本单位已关闭 WebDAV / WebDAV is turned off for this organisation' },
} as const;

export type DavRefusal = keyof typeof DAV_REFUSALS;

const CHALLENGE = `Basic realm="${DAV_REALM}", charset="UTF-8"`;

/** A refusal, and what the action log needs of it (`recorded`: the error code, when it is recorded). */
type Refused = DavAuthResult & { ok: false; recorded?: string; username: string; user?: UsersTable };

/** A refusal as the /dav/ plugin sends it: status, WWW-Authenticate on 401, Retry-After on 429, the reason as a text/plain body. */
function refuse(kind: DavRefusal, who: { username?: string; user?: UsersTable; retryAfterSeconds?: number } = {}): Refused {
  const { status, reason } = DAV_REFUSALS[kind];
  const headers: Record<string, string> = {};
  if (status === 401) headers['WWW-Authenticate'] = CHALLENGE;
  if (who.retryAfterSeconds !== undefined) headers['Retry-After'] = String(Math.max(1, who.retryAfterSeconds));
  return { ok: false, status, headers, body: `${reason}\n`, recorded: RECORDED[kind], username: who.username ?? '', user: who.user };
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string): boolean {
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (net.isIPv4(a)) return a.startsWith('127.');
  return a === '::1';
}

/**
 * `Authorization: Basic base64(user:password)`, decoded as UTF-8 (RFC 7617's charset="UTF-8", which
 * the challenge announces; Finder, Explorer and rclone send UTF-8). Null when absent or not Basic.
 */
export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  const m = /^Basic[ \t]+([A-Za-z0-9+/]+={0,2})[ \t]*$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon).normalize('NFC'), password: decoded.slice(colon + 1) };
}

export interface DavAuthDeps {
  passwords: DevicePasswordService;
  throttle: LoginThrottle;
  policy: AccountPolicy;
  /** The tenant's WebDAV switch (系统配置). */
  davEnabled: (tenantId: string) => Promise<boolean>;
  users: UserRepository;
  actionLogs: ActionLogService;
}

/**
 * Refused sign-ins that are on the action log (auth.davLogin), with the error code a web login would
 * have: someone offered credentials and was turned away. Not recorded: a request without credentials
 * (how every client starts), a throttled one (no password was looked at), nor the tenant's switch
 * being off (every request of every client would be a row).
 */
const RECORDED: Partial<Record<DavRefusal, string>> = {
  wrongCredentials: ERRORS.LOGIN_FAILED.code,
  accountLocked: ERRORS.ACCOUNT_LOCKED.code,
  passwordExpired: ERRORS.PASSWORD_EXPIRED.code,
  outerLoginRefused: ERRORS.OUTER_LOGIN_REFUSED.code,
};

/** The checks, in order; see docs/webdav.md for why each is where it is. */
export class DavAuthenticator {
  constructor(private readonly deps: DavAuthDeps) {}

  async authenticate(request: FastifyRequest, now = Date.now()): Promise<DavAuthResult> {
    const result = await this.check(request, now);
    if (!result.ok && result.recorded) await this.record(request, result, now);
    if (result.ok) return result;
    return { ok: false, status: result.status, headers: result.headers, body: result.body };
  }

  /**
   * As the web login's: the account named, in its tenant (the password's owner when it matched, else
   * the one account of that name); a name no account has, or several tenants have, goes to the
   * platform's chain with the name as typed.
   */
  private async record(request: FastifyRequest, refusal: Refused, now: number): Promise<void> {
    let actor: Actor;
    if (refusal.user) actor = actorOfUser(refusal.user, this.networkEnv());
    else {
      const candidates = await this.deps.users.findLoginCandidates(refusal.username);
      actor =
        candidates.length === 1
          ? actorOfUser(candidates[0]!, this.networkEnv())
          : { tenantId: PLATFORM_TENANT, id: null, account: refusal.username, role: '', networkEnv: this.networkEnv() };
    }
    const ctx = newActionContext();
    ctx.entries.push({ action: 'auth.davLogin', actor });
    try {
      await this.deps.actionLogs.finishRequest(
        ctx,
        {
          method: request.method,
          routeUrl: '/dav/*',
          routeAction: 'auth.davLogin',
          status: refusal.status,
          errorCode: refusal.recorded ?? null,
          caller: null,
          address: request.ip,
          userAgent: String(request.headers['user-agent'] ?? ''),
          platform: 'webdav',
          clientType: null,
          claimedNetwork: '',
          targets: [],
        },
        now,
      );
    } catch (err) {
      // The refusal stands; a record that could not be written is the server's failure, logged loudly.
      request.log.error({ err }, 'action log write failed');
    }
  }

  /** WebDAV clients send no X-Network-Env: the instance's FORCE_NETWORK_ENV decides, else internal. */
  private networkEnv() {
    return this.deps.policy.forceNetworkEnv ?? 'internal';
  }

  private async check(request: FastifyRequest, now: number): Promise<Extract<DavAuthResult, { ok: true }> | Refused> {
    // request.protocol and request.ip honour TRUST_PROXY: behind the cluster's TLS balancer they are
    // the client's (X-Forwarded-Proto: https). Checked before the credentials are even read.
    if (request.protocol !== 'https' && !isLoopback(request.ip)) return refuse('plainHttp');
    const credentials = parseBasic(request.headers.authorization);
    // No credentials is how clients ask what to send (Explorer always starts so): not a failure.
    if (!credentials || !credentials.username) return refuse('noCredentials');
    const { username, password } = credentials;
    const address = request.ip;
    const { throttle, policy } = this.deps;
    const state = await throttle.checkDav(username, address, now);
    if (state.locked) return refuse('accountLocked', { username });
    if (state.waitSeconds > 0) return refuse('tooManyAttempts', { retryAfterSeconds: state.waitSeconds });
    const match = await this.deps.passwords.verify(username, password, address, now);
    if (!match) {
      await throttle.recordDavFailure(username, address, now);
      return refuse('wrongCredentials', { username });
    }
    if (state.nameFailures) await throttle.clearDavAccount(username);
    const { user } = match;
    // Only the right password learns these (no enumeration), as at the web login.
    if (user.locked) return refuse('accountLocked', { user, username });
    const changeType = passwordChangeTypeOf(user, policy.passwordExpiryDays, now);
    if (changeType !== 0) return refuse('passwordExpired', { user, username });
    const networkEnv = this.networkEnv();
    if (networkEnv === 'public' && !user.outer_login) return refuse('outerLoginRefused', { user, username });
    if (!(await this.deps.davEnabled(user.tenant_id))) return refuse('davOff');
    return {
      ok: true,
      caller: {
        userId: user.id,
        tenantId: user.tenant_id,
        username: user.username,
        role: user.role,
        passwordChangeType: 0,
        networkEnv,
        platformAdmin: user.platform_admin === 1 && user.role === 'admin',
        client: 'webdav',
      },
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The WebDAV sign-in (server/dav/dav-auth.ts): what /dav/ asks; tests and tools may ask it too. */
    davAuthenticator: DavAuthenticator;
  }
}

export function installDavAuth(app: FastifyInstance, authenticator: DavAuthenticator): void {
  app.decorate('davAuthenticator', authenticator);
}

/**
 * The one call the /dav/ plugin makes for each request (its DavAuthenticate seam, server/dav/context.ts):
 * the caller, or the refusal to send as it is. Never throws for a client's mistake.
 */
export function davAuthenticate(authenticator: DavAuthenticator): DavAuthenticate {
  return (request) => authenticator.authenticate(request);
}
