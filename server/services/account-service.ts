import { ERRORS } from '../../common/api/errors';
import type {
  AccountLockRequest,
  OuterLoginSetRequest,
  PhoneValidateRequest,
  SessionEndRequest,
  SetRolesRequest,
  UserInfoModifyRequest,
  UserSearchRequest,
} from '../../common/api/endpoints/account';
import { ROLES, type SignedInDevice, type UserRoles, type UserSummary, USER_SEARCH_LIMIT } from '../../common/api/types';
import { describeUserAgent } from '../../common/account/user-agent';
import { decryptPassword } from '../../common/crypto/password-cipher';
import { validateNewPassword } from '../../common/validation/password';
import type { UsersTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { SessionRepository } from '../repositories/session-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { AuthService, LoginContext } from './auth-service';
import type { Caller } from './caller';
import type { LoginThrottle } from './login-throttle';
import { hashPassword, verifyPassword } from './password-hash';
import type { SmsCodeService } from './sms-code-service';
import { actionLog, userTarget } from './action-log/recorder';

/** Where the request that changes the password came from: the new session of this device is opened with it. */
export type DeviceContext = Omit<LoginContext, 'networkEnv'>;

/** What AccountService works with (named: more than four collaborators, the composition root's rule). */
export interface AccountServiceDeps {
  users: UserRepository;
  sessions: SessionRepository;
  throttle: LoginThrottle;
  smsCodes: SmsCodeService;
  auth: AuthService;
}

/**
 * What users do to their own account (agreement, password, phone) and what tenant admins do to their
 * users (lock, roles, outer login). Every target id is looked up within the caller's tenant: another
 * tenant's id answers USER_NOT_FOUND (404), like an unknown one.
 */
export class AccountService {
  private readonly users: UserRepository;
  private readonly sessions: SessionRepository;
  private readonly throttle: LoginThrottle;
  private readonly smsCodes: SmsCodeService;
  private readonly auth: AuthService;

  constructor(deps: AccountServiceDeps) {
    ({ users: this.users, sessions: this.sessions, throttle: this.throttle, smsCodes: this.smsCodes, auth: this.auth } = deps);
  }

  private async target(caller: Caller, userId: string): Promise<UsersTable> {
    const user = await this.users.findInTenant(caller.tenantId, userId);
    if (!user) throw new AppError(ERRORS.USER_NOT_FOUND);
    return user;
  }

  /** The admin's user list (tenant-scoped), with both kinds of lock shown as one flag. */
  async search(caller: Caller, req: UserSearchRequest): Promise<UserSummary[]> {
    const rows = await this.users.search(caller.tenantId, (req.keyword ?? '').trim(), USER_SEARCH_LIMIT);
    const lockedByFailures = await this.throttle.lockedAmong(rows.map((u) => u.username));
    return rows.map((u) => ({
      id: u.id,
      website: u.username,
      nickName: u.nick_name,
      phone: u.phone,
      role: u.role,
      locked: u.locked === 1 || lockedByFailures.has(u.username),
      outerLogin: u.outer_login === 1,
    }));
  }

  async readAgreement(caller: Caller, now = Date.now()): Promise<void> {
    actionLog.record({ action: 'account.agreementRead' });
    await this.users.update(caller.userId, { agreement_read_at: now });
  }

  /**
   * Password change (rules: UserInfoModifyRequest in common/api/endpoints/account.ts). Old-password failures go through the
   * login throttle, so a stolen session cannot guess the password faster than the login page could.
   */
  changePassword(caller: Caller, req: UserInfoModifyRequest, device: DeviceContext, now = Date.now()): Promise<{ token: string }> {
    return this.throttle.serialize(caller.username, () => this.changePasswordNow(caller, req, device, Math.max(now, Date.now())));
  }

  /** The caller's own row, once `password` (AES-encrypted) is proven; a wrong one counts as a login failure. */
  private async provenSelf(caller: Caller, password: string, address: string, now: number, wrong: typeof ERRORS.OLD_PASSWORD_WRONG | typeof ERRORS.PASSWORD_WRONG): Promise<{ user: UsersTable; plain: string }> {
    await this.throttle.check(caller.username, address, now);
    const user = await this.target(caller, caller.userId);
    const plain = decryptPassword(password) ?? '';
    if (!(await verifyPassword(plain, user.password_hash))) {
      await this.throttle.recordFailure(caller.username, address, now);
      throw new AppError(wrong);
    }
    return { user, plain };
  }

  /**
   * Ends every session of the user and opens a new one for this device (the returned token goes in
   * its cookie): the user goes on with the new password while every other device must sign in again.
   */
  private async changePasswordNow(caller: Caller, req: UserInfoModifyRequest, device: DeviceContext, now: number): Promise<{ token: string }> {
    actionLog.record({ action: 'account.passwordChange' });
    const { user, plain: oldPassword } = await this.provenSelf(caller, req.oldPassword, device.address, now, ERRORS.OLD_PASSWORD_WRONG);
    const value = decryptPassword(req.value) ?? '';
    const broken = validateNewPassword(value);
    if (broken) throw new AppError(ERRORS.PASSWORD_INVALID, broken);
    if (value === oldPassword) throw new AppError(ERRORS.PASSWORD_SAME_AS_OLD);
    await this.users.update(user.id, {
      password_hash: await hashPassword(value),
      must_change_password: 0,
      password_changed_at: now,
    });
    await this.sessions.deleteForUser(user.id);
    await this.throttle.clearAccount(user.username);
    const changed = { ...user, must_change_password: 0, password_changed_at: now };
    const { token } = await this.auth.openSession(changed, { ...device, networkEnv: caller.networkEnv }, now);
    return { token };
  }

  /**
   * Binds or replaces the caller's phone (rules: PhoneValidateRequest): the login password first
   * (throttled like a login), then the code of the phone bound now when the gateway delivers, then the
   * new phone's code.
   */
  bindPhone(caller: Caller, req: PhoneValidateRequest, address: string, now = Date.now()): Promise<void> {
    actionLog.record({ action: 'account.phoneBind', detail: { phone: maskPhone(req.phone) } });
    return this.throttle.serialize(caller.username, () => this.bindPhoneNow(caller, req, address, Math.max(now, Date.now())));
  }

  private async bindPhoneNow(caller: Caller, req: PhoneValidateRequest, address: string, now: number): Promise<void> {
    const { user } = await this.provenSelf(caller, req.password, address, now, ERRORS.PASSWORD_WRONG);
    if (user.phone && user.phone === req.phone) throw new AppError(ERRORS.PHONE_SAME_AS_OLD);
    const codes: Parameters<SmsCodeService['consumeAll']>[0][number][] = [{ phone: req.phone, purpose: 'bindPhone', userId: caller.userId, code: req.code }];
    if (user.phone && this.smsCodes.delivers) {
      if (!req.oldCode) throw new AppError(ERRORS.OLD_PHONE_CODE_REQUIRED);
      codes.push({ phone: user.phone, purpose: 'verifyPhone', userId: caller.userId, code: req.oldCode });
    }
    await this.smsCodes.consumeAll(codes, now);
    const holder = await this.users.findByPhone(req.phone);
    if (holder && holder.id !== caller.userId) throw new AppError(ERRORS.PHONE_IN_USE);
    await this.users.update(caller.userId, { phone: req.phone });
    await this.throttle.clearAccount(user.username);
  }

  /** 账号安全's device list: the caller's active sessions, this one marked. */
  async devices(caller: Caller, now = Date.now()): Promise<SignedInDevice[]> {
    const rows = await this.sessions.listActive(caller.tenantId, caller.userId, now);
    return rows.map((s) => ({
      id: s.public_id ?? '',
      ...describeUserAgent(s.user_agent),
      address: s.address ?? null,
      signedInAt: s.created_at,
      lastActiveAt: s.last_seen_at,
      networkEnv: s.network_env === 'public' ? 'public' : 'internal',
      current: s.id === caller.sessionId,
    }));
  }

  /** 退出 one other device of the caller's; an id the caller has no active session by → SESSION_NOT_FOUND. */
  async endDevice(caller: Caller, req: SessionEndRequest, now = Date.now()): Promise<void> {
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'account.sessionEnd', detail });
    const [ended] = await this.sessions.endOwn(caller.tenantId, caller.userId, [req.id], caller.sessionId ?? '', 'signedOut', now);
    if (!ended) throw new AppError(ERRORS.SESSION_NOT_FOUND);
    Object.assign(detail, deviceDetail(ended));
  }

  /** 退出其他设备: every active session of the caller's but this one. */
  async endOtherDevices(caller: Caller, now = Date.now()): Promise<{ ended: number }> {
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'account.sessionEndOthers', detail });
    const ended = await this.sessions.endOwn(caller.tenantId, caller.userId, null, caller.sessionId ?? '', 'signedOut', now);
    detail.devices = ended.map(deviceDetail);
    return { ended: ended.length };
  }

  async lock(caller: Caller, req: AccountLockRequest): Promise<void> {
    const user = await this.target(caller, req.userId);
    actionLog.record({ action: 'user.lock', targets: [userTarget(user)] });
    if (user.id === caller.userId) throw new AppError(ERRORS.CANNOT_LOCK_SELF);
    await this.users.update(user.id, { locked: 1, locked_reason: 'admin' });
    await this.sessions.endForUser(user.id, 'locked');
  }

  /** Lifts an admin's lock and a lock by failures, and forgets the failure count. */
  async unlock(caller: Caller, req: AccountLockRequest): Promise<void> {
    const user = await this.target(caller, req.userId);
    actionLog.record({ action: 'user.unlock', targets: [userTarget(user)] });
    await this.users.update(user.id, { locked: 0, locked_reason: null });
    await this.throttle.clearAccount(user.username);
  }

  async getRoles(caller: Caller, userId: string | undefined): Promise<UserRoles> {
    const id = userId || caller.userId;
    if (id !== caller.userId && caller.role !== 'admin') throw new AppError(ERRORS.FORBIDDEN);
    const user = await this.target(caller, id);
    return { userId: user.id, roles: [user.role], available: ROLES };
  }

  async setRoles(caller: Caller, req: SetRolesRequest): Promise<UserRoles> {
    const user = await this.target(caller, req.userId);
    const role = req.roles[0];
    actionLog.record({ action: 'user.setRole', targets: [userTarget(user)], detail: { from: user.role, to: role ?? null } });
    if (req.roles.length !== 1 || !role || !ROLES.some((r) => r.code === role)) throw new AppError(ERRORS.VALIDATION);
    if (role !== user.role && !(await this.users.setRoleKeepingAnAdmin(caller.tenantId, user.id, role))) {
      throw new AppError(ERRORS.LAST_ADMIN);
    }
    return { userId: user.id, roles: [role], available: ROLES };
  }

  async setOuterLogin(caller: Caller, req: OuterLoginSetRequest): Promise<void> {
    const user = await this.target(caller, req.userId);
    actionLog.record({ action: 'user.outerLogin', targets: [userTarget(user)], detail: { from: user.outer_login === 1, to: req.enabled } });
    await this.users.update(user.id, { outer_login: req.enabled ? 1 : 0 });
    if (!req.enabled) await this.sessions.endForUser(user.id, 'outerLogin', 'public');
  }
}

/** What the action log keeps of a signed-out device: what the user saw in the list. */
function deviceDetail(s: { user_agent?: string | null; address?: string | null; created_at: number }): Record<string, unknown> {
  const { device, browser } = describeUserAgent(s.user_agent);
  return { device: browser ? `${device} · ${browser}` : device, address: s.address ?? null, signedInAt: s.created_at };
}

/** Phones in the action log show their first three and last four digits. */
function maskPhone(phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}
