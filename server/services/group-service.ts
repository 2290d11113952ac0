import { ERRORS } from '../../common/api/errors';
import type { GroupMemberListResponse, SpaceInfo, SpaceRole } from '../../common/api/types';
import { spaceAllows } from '../../common/files/space-roles';
import { checkIdentifierName } from '../../common/validation/names';
import { isUniqueViolation } from '../db/database';
import type { SpacesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { SpaceRepository } from '../repositories/space-repository';
import type { UserRepository } from '../repositories/user-repository';
import type { Caller } from './caller';
import { spaceRoot, type AccessService } from './space-access';
import { actionLog, target, userTarget } from './action-log/recorder';

const groupTarget = (space: Pick<SpacesTable, 'id' | 'name'>) => target('group', space.id, space.name);

/** Group names follow §5's second rule (Chinese, letters, digits, underscore). */
function validGroupName(raw: string): string {
  const problem = checkIdentifierName(raw);
  if (problem) throw new AppError({ ...problem, status: 400 });
  return raw.trim();
}

function info(space: SpacesTable, role: SpaceRole | null, memberCount: number): SpaceInfo {
  return { id: space.id, kind: space.kind, name: space.name, rootId: space.root_id, myRole: role, memberCount, createdAt: space.created_at };
}

/** Group spaces (/main/group): create, list, rename, delete, members and roles (common/files/space-roles.ts). */
export class GroupService {
  constructor(
    private readonly spaces: SpaceRepository,
    private readonly users: UserRepository,
    private readonly access: AccessService,
  ) {}

  async list(caller: Caller): Promise<SpaceInfo[]> {
    const rows = await this.spaces.listGroups(caller.tenantId, caller.userId, caller.role === 'admin');
    return rows.map((r) => info(r, r.role, r.member_count));
  }

  async publicSpace(caller: Caller): Promise<SpaceInfo> {
    const space = await this.access.publicSpace(caller);
    return info(space, null, 0);
  }

  /** The creator becomes its owner. */
  async create(caller: Caller, rawName: string, now = Date.now()): Promise<SpaceInfo> {
    const id = newId();
    const entry = { action: 'group.create' as const, targets: [target('group', id, rawName)] };
    actionLog.record(entry);
    const name = validGroupName(rawName);
    entry.targets = [target('group', id, name)];
    const root = spaceRoot(caller, id, name, now);
    const space: SpacesTable = { id, tenant_id: caller.tenantId, kind: 'group', name, name_key: name.toLowerCase(), root_id: root.id, created_by: caller.userId, created_at: now };
    try {
      await this.spaces.create(space, root, { space_id: id, user_id: caller.userId, role: 'owner', joined_at: now });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(ERRORS.GROUP_NAME_CONFLICT);
      throw err;
    }
    return info(space, 'owner', 1);
  }

  private async group(caller: Caller, id: string, action: Parameters<AccessService['space']>[2]) {
    const access = await this.access.space(caller, id, action);
    if (access.space.kind !== 'group') throw new AppError(ERRORS.NOT_FOUND);
    return access;
  }

  async rename(caller: Caller, id: string, rawName: string): Promise<SpaceInfo> {
    const { space, role } = await this.group(caller, id, 'renameGroup');
    actionLog.record({ action: 'group.rename', targets: [groupTarget(space)], detail: { from: space.name, to: rawName } });
    const name = validGroupName(rawName);
    try {
      await this.spaces.rename(space.id, name, name.toLowerCase());
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(ERRORS.GROUP_NAME_CONFLICT);
      throw err;
    }
    return info({ ...space, name, name_key: name.toLowerCase() }, role, (await this.spaces.members(space.id)).length);
  }

  /** Only an empty group: its files (live or in someone's recycle bin) would otherwise lose their space. */
  async delete(caller: Caller, id: string): Promise<void> {
    const { space } = await this.group(caller, id, 'deleteGroup');
    actionLog.record({ action: 'group.delete', targets: [groupTarget(space)] });
    if (await this.spaces.hasEntries(space)) throw new AppError(ERRORS.GROUP_NOT_EMPTY);
    await this.spaces.delete(space);
  }

  async members(caller: Caller, id: string): Promise<GroupMemberListResponse> {
    const { space } = await this.group(caller, id, 'read');
    const rows = await this.spaces.members(space.id);
    return { members: rows.map((r) => ({ userId: r.user_id, username: r.username, nickName: r.nick_name, role: r.role, joinedAt: r.joined_at })) };
  }

  /** Adds (or re-roles) a user of the same tenant. Only owners hand out or take the owner role. */
  async addMember(caller: Caller, id: string, username: string, role: SpaceRole = 'member', now = Date.now()): Promise<GroupMemberListResponse> {
    const { space, role: myRole } = await this.group(caller, id, 'manageMembers');
    const entry = { action: 'group.memberAdd' as const, targets: [groupTarget(space), target('user', '', username)], detail: { role } as Record<string, unknown> };
    actionLog.record(entry);
    this.assertMayGrant(caller, myRole, role);
    const user = await this.users.findByAccountInTenant(caller.tenantId, username);
    if (!user) throw new AppError(ERRORS.GROUP_USER_NOT_FOUND);
    entry.targets = [groupTarget(space), userTarget(user)];
    const current = await this.spaces.roleOf(space.id, user.id);
    entry.detail.previousRole = current;
    if (current) {
      this.assertMayGrant(caller, myRole, current);
      if (!(await this.spaces.changeMember(space.id, user.id, role))) throw new AppError(ERRORS.GROUP_LAST_OWNER);
    } else {
      await this.spaces.upsertMember({ space_id: space.id, user_id: user.id, role, joined_at: now });
    }
    return this.members(caller, id);
  }

  async setRole(caller: Caller, id: string, userId: string, role: SpaceRole): Promise<GroupMemberListResponse> {
    const { space, role: myRole } = await this.group(caller, id, 'manageMembers');
    const user = await this.userInTenant(caller, userId);
    const current = await this.spaces.roleOf(space.id, userId);
    actionLog.record({ action: 'group.memberRole', targets: [groupTarget(space), userTarget(user)], detail: { from: current, to: role } });
    if (!current) throw new AppError(ERRORS.GROUP_USER_NOT_FOUND);
    this.assertMayGrant(caller, myRole, current);
    this.assertMayGrant(caller, myRole, role);
    if (!(await this.spaces.changeMember(space.id, userId, role))) throw new AppError(ERRORS.GROUP_LAST_OWNER);
    return this.members(caller, id);
  }

  /** Members may leave (remove themselves); managers remove members and managers; owners anyone. */
  async removeMember(caller: Caller, id: string, userId: string): Promise<GroupMemberListResponse> {
    const leaving = userId === caller.userId;
    const { space, role: myRole } = await this.group(caller, id, leaving ? 'read' : 'manageMembers');
    const user = await this.userInTenant(caller, userId);
    const current = await this.spaces.roleOf(space.id, userId);
    actionLog.record({ action: 'group.memberRemove', targets: [groupTarget(space), userTarget(user)], detail: { role: current, leaving } });
    if (!current) throw new AppError(ERRORS.GROUP_USER_NOT_FOUND);
    if (!leaving) this.assertMayGrant(caller, myRole, current);
    if (!(await this.spaces.changeMember(space.id, userId, null))) throw new AppError(ERRORS.GROUP_LAST_OWNER);
    return leaving ? { members: [] } : this.members(caller, id);
  }

  /**
   * A user id must belong to the caller's tenant: another tenant's user ids answer USER_NOT_FOUND (404)
   * exactly like ids never issued (as the account calls do); GROUP_USER_NOT_FOUND is for a user of the
   * tenant who is not in the group.
   */
  private async userInTenant(caller: Caller, userId: string) {
    const user = await this.users.findInTenant(caller.tenantId, userId);
    if (!user) throw new AppError(ERRORS.USER_NOT_FOUND);
    return user;
  }

  /** Touching the owner role (giving it, or changing/removing an owner) needs manageOwners. */
  private assertMayGrant(caller: Caller, myRole: SpaceRole | null, role: SpaceRole): void {
    if (role === 'owner' && !spaceAllows(myRole, 'manageOwners', caller.role === 'admin')) throw new AppError(ERRORS.FORBIDDEN);
  }
}
