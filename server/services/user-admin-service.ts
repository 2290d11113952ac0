import { ERRORS } from '../../common/api/errors';
import type {
  HandOverFilesRequest,
  UserAddRequest,
  UserDeleteRequest,
  UserEditRequest,
  UserListRequest,
  UserSetDepartmentRequest,
} from '../../common/api/endpoints/user-admin';
import type { HandOverFilesResponse, UserListResponse, UserRow } from '../../common/api/org-types';
import { ROLES } from '../../common/api/types';
import { decryptPassword } from '../../common/crypto/password-cipher';
import { accountKey, accountProblem, nicknameProblem, phoneProblem } from '../../common/org/account';
import { quotaAllowed, type QuotaChoice } from '../../common/org/quota';
import { validateNewPassword } from '../../common/validation/password';
import { isUniqueViolation, type Db } from '../db/database';
import type { UsersTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import { AccountAdminRepository, AccountRefusal, editProfile } from '../repositories/account-admin-repository';
import type { DepartmentRepository } from '../repositories/department-repository';
import type { OrgUserRepository, PersonRow } from '../repositories/org-user-repository';
import type { SessionRepository } from '../repositories/session-repository';
import type { UserRepository } from '../repositories/user-repository';
import { newAccountRow, profileColumns, type CheckedProfile } from './account-profile';
import type { Caller } from './caller';
import { decodePeopleCursor, pageSizeOf, toPage } from './org-cursor';
import { hashPassword } from './password-hash';
import { formatSize } from '../../common/format/size';
import { actionLog, target } from './action-log/recorder';

const accountTarget = (c: { id: string; account: string }) => target('user', c.id, c.account);


export function userRow(r: PersonRow | (UsersTable & { failure_locked?: number })): UserRow {
  const failureLocked = Number(r.failure_locked ?? 0) === 1;
  return {
    id: r.id,
    website: r.username,
    nickName: r.nick_name,
    phone: r.phone,
    role: r.role,
    departmentId: r.department_id ?? '',
    quota: Number(r.quota),
    usedSize: Number(r.used_size),
    locked: r.locked === 1 || failureLocked,
    lockedReason: r.locked === 1 ? 'admin' : failureLocked ? 'failures' : null,
    mustChangePassword: r.must_change_password === 1,
    outerLogin: r.outer_login === 1,
    createdAt: Number(r.created_at),
  };
}

/** What an account change was, for the action log. */
export interface AccountChange {
  id: string;
  account: string;
  detail?: Record<string, unknown>;
}

export interface UserAdminServiceDeps {
  db: Db;
  users: UserRepository;
  people: OrgUserRepository;
  departments: DepartmentRepository;
  sessions: SessionRepository;
  /** Who is in which department (or a manager's name) changed: the cached tree is dropped. */
  orgChanged?: (tenantId: string) => Promise<void>;
  /** The tenant's `quota` static-data list (DictService.quotaChoices): what add and edit accept. */
  quotaChoices: (tenantId: string) => Promise<readonly QuotaChoice[]>;
}

/**
 * 用户管理 for tenant admins (rules in org-types.ts): the filtered keyset list, add, edit, moving people
 * between departments, delete and the hand-over of files. Target ids are looked up in the caller's
 * tenant; another tenant's answer USER_NOT_FOUND / DEPT_NOT_FOUND (404) like unknown ones.
 */
export class UserAdminService {
  private readonly admin: AccountAdminRepository;
  private readonly orgChanged: (tenantId: string) => Promise<void>;

  constructor(private readonly deps: UserAdminServiceDeps) {
    this.orgChanged = deps.orgChanged ?? (async () => undefined);
    this.admin = new AccountAdminRepository(deps.db);
  }

  async list(caller: Caller, req: UserListRequest): Promise<UserListResponse> {
    await this.deps.departments.ensureUnassigned(caller.tenantId);
    if (req.departmentId && !(await this.deps.departments.find(caller.tenantId, req.departmentId))) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    const limit = pageSizeOf(req.pageSize);
    const filter = {
      department: req.departmentId ? { id: req.departmentId, withSub: req.includeSub !== false } : undefined,
      role: req.role,
      state: req.state,
      keyword: req.keyword,
    };
    const rows = await this.deps.people.page(caller.tenantId, filter, decodePeopleCursor(req.cursor), limit + 1);
    const page = toPage(rows, limit, userRow);
    return req.cursor ? page : { ...page, total: await this.deps.people.count(caller.tenantId, filter) };
  }

  async get(caller: Caller, id: string): Promise<UserRow> {
    await this.deps.departments.ensureUnassigned(caller.tenantId);
    const row = await this.deps.people.person(caller.tenantId, id);
    if (!row) throw new AppError(ERRORS.USER_NOT_FOUND);
    return userRow(row);
  }

  private async check(caller: Caller, req: Omit<UserAddRequest, 'password'>, existing: UsersTable | null): Promise<CheckedProfile> {
    const accountBroken = accountProblem(req.website);
    if (accountBroken) throw new AppError(ERRORS.ACCOUNT_INVALID, accountBroken);
    const nickBroken = nicknameProblem(req.nickName);
    if (nickBroken) throw new AppError(ERRORS.NICKNAME_INVALID, nickBroken);
    const phoneBroken = phoneProblem(req.phone);
    if (phoneBroken) throw new AppError(ERRORS.PHONE_INVALID, phoneBroken);
    if (!ROLES.some((r) => r.code === req.role)) throw new AppError(ERRORS.VALIDATION);
    // The tenant's `quota` list decides; an account keeps a quota from before the list (or the server
    // default, or an entry since turned off) until it is changed.
    if (!quotaAllowed(req.quota, await this.deps.quotaChoices(caller.tenantId)) && !(existing && Number(existing.quota) === req.quota)) throw new AppError(ERRORS.QUOTA_NOT_ALLOWED);
    if (!(await this.deps.departments.find(caller.tenantId, req.departmentId))) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    const website = req.website.trim();
    const phone = req.phone.trim();
    const sameName = await this.deps.users.findByAccountInTenant(caller.tenantId, website);
    if (sameName && sameName.id !== existing?.id) throw new AppError(ERRORS.ACCOUNT_TAKEN);
    if (phone) {
      const holder = await this.deps.users.findByPhone(phone);
      if (holder && holder.id !== existing?.id) throw new AppError(ERRORS.PHONE_IN_USE);
    }
    return { website, key: accountKey(website), nickName: req.nickName.trim(), phone, departmentId: req.departmentId, role: req.role, quota: req.quota, outerLogin: req.outerLogin };
  }

  private static async initialPasswordHash(encrypted: string): Promise<string> {
    const password = decryptPassword(encrypted) ?? '';
    const broken = validateNewPassword(password);
    if (broken) throw new AppError(ERRORS.PASSWORD_INVALID, broken);
    return hashPassword(password);
  }

  /** A unique index refused the write: a concurrent add took the account or the phone first. */
  private static uniqueError(err: unknown): unknown {
    if (!isUniqueViolation(err)) return err;
    return new AppError(/phone/i.test(String((err as Error).message)) ? ERRORS.PHONE_IN_USE : ERRORS.ACCOUNT_TAKEN);
  }

  async add(caller: Caller, req: UserAddRequest, now = Date.now()): Promise<{ row: UserRow; change: AccountChange }> {
    await this.deps.departments.ensureUnassigned(caller.tenantId);
    const p = await this.check(caller, req, null);
    const passwordHash = await UserAdminService.initialPasswordHash(req.password);
    const id = newId();
    try {
      await this.deps.users.insert(newAccountRow(caller.tenantId, id, p, passwordHash, now));
    } catch (err) {
      throw UserAdminService.uniqueError(err);
    }
    await this.orgChanged(caller.tenantId);
    const change = { id, account: p.website, detail: { departmentId: p.departmentId, role: p.role } };
    actionLog.record({ action: 'user.create', targets: [accountTarget(change)], detail: change.detail });
    return { row: await this.get(caller, id), change };
  }

  async edit(caller: Caller, req: UserEditRequest): Promise<{ row: UserRow; change: AccountChange }> {
    const user = await this.deps.users.findInTenant(caller.tenantId, req.id);
    if (!user) throw new AppError(ERRORS.USER_NOT_FOUND);
    const p = await this.check(caller, req, user);
    const passwordHash = req.password ? await UserAdminService.initialPasswordHash(req.password) : null;
    const after = profileColumns(p);
    const { role, ...columns } = after;
    let outcome: 'ok' | 'lastAdmin';
    try {
      outcome = await editProfile(
        this.deps.db,
        caller.tenantId,
        user.id,
        { ...columns, ...(passwordHash ? { password_hash: passwordHash, must_change_password: 1, password_changed_at: null } : {}) },
        role !== user.role ? role : null,
      );
    } catch (err) {
      throw UserAdminService.uniqueError(err);
    }
    if (outcome === 'lastAdmin') throw new AppError(ERRORS.LAST_ADMIN);
    await this.orgChanged(caller.tenantId);
    // A new initial password ends every session; outer login withdrawn ends the public-network ones.
    if (passwordHash) await this.deps.sessions.endForUser(user.id, 'passwordReset');
    else if (user.outer_login === 1 && !p.outerLogin) await this.deps.sessions.endForUser(user.id, 'outerLogin', 'public');
    const changed = (['username', 'nick_name', 'phone', 'department_id', 'quota', 'outer_login', 'role'] as const).filter((k) => String(user[k] ?? '') !== String(after[k]));
    const change = { id: user.id, account: p.website, detail: { changed, before: user.username, passwordReset: passwordHash !== null } };
    actionLog.record({ action: 'user.update', targets: [accountTarget(change)], detail: change.detail });
    return { row: await this.get(caller, user.id), change };
  }

  async setDepartment(caller: Caller, req: UserSetDepartmentRequest): Promise<{ moved: number; changes: AccountChange[] }> {
    if (!(await this.deps.departments.find(caller.tenantId, req.departmentId))) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    const ids = [...new Set(req.ids)];
    const found = await this.deps.people.inTenant(caller.tenantId, ids);
    if (found.length !== ids.length) throw new AppError(ERRORS.USER_NOT_FOUND);
    const moved = await this.deps.people.setDepartment(caller.tenantId, ids, req.departmentId);
    await this.orgChanged(caller.tenantId);
    const changes = found.map((u) => ({ id: u.id, account: u.username, detail: { from: u.department_id, to: req.departmentId } }));
    // One action (the admin moved these people at once): one record naming all of them.
    actionLog.record({ action: 'user.update', targets: changes.map(accountTarget), detail: { departmentId: req.departmentId, moved } });
    return { moved, changes };
  }

  async delete(caller: Caller, req: UserDeleteRequest, now = Date.now()): Promise<AccountChange> {
    if (req.id === caller.userId) throw new AppError(ERRORS.CANNOT_DELETE_SELF);
    try {
      const user = await this.admin.softDelete(caller.tenantId, req.id, now);
      await this.orgChanged(caller.tenantId);
      actionLog.record({ action: 'user.delete', targets: [target('user', user.id, user.username)] });
      return { id: user.id, account: user.username };
    } catch (err) {
      if (!(err instanceof AccountRefusal)) throw err;
      if (err.reason === 'notFound') throw new AppError(ERRORS.USER_NOT_FOUND);
      if (err.reason === 'lastAdmin') throw new AppError(ERRORS.LAST_ADMIN);
      const owned = err.owned!;
      throw new AppError(ERRORS.USER_HAS_FILES, `该用户仍有${owned.entries}个文件和文件夹（${formatSize(owned.bytes)}），请先将文件转移给其他用户`, {}, { ...owned });
    }
  }

  async handOverFiles(caller: Caller, req: HandOverFilesRequest, now = Date.now()): Promise<{ result: HandOverFilesResponse; change: AccountChange }> {
    const from = await this.deps.users.findInTenant(caller.tenantId, req.fromId);
    const to = await this.deps.users.findInTenant(caller.tenantId, req.toId);
    if (!from || !to) throw new AppError(ERRORS.USER_NOT_FOUND);
    if (from.id === to.id) throw new AppError(ERRORS.HAND_OVER_SAME_USER);
    const base = `${from.nick_name}（${from.username}）的文件`.replace(/[|,/<>*?\\[\]]/g, '_').slice(0, 200);
    try {
      const result = await this.admin.handOverFiles(caller.tenantId, from.id, to.id, base, now);
      const change = { id: from.id, account: from.username, detail: { toId: to.id, toAccount: to.username, ...result } };
      actionLog.record({ action: 'user.transferFiles', targets: [accountTarget(change), target('user', to.id, to.username)], detail: { ...result } });
      return { result, change };
    } catch (err) {
      if (err instanceof AccountRefusal) throw new AppError(ERRORS.USER_NOT_FOUND);
      throw err;
    }
  }
}
