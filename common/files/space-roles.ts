import type { SpaceRole } from '../api/types';

/**
 * Who may do what in a space (group spaces of /main/group and the tenant's public space). The server
 * enforces exactly this table (server/services/space-access.ts); the UI uses it to hide what would
 * be refused. Tenant administrators may do everything in every space of their tenant.
 *
 * | action          | owner | manager | member           | public space (any tenant user) |
 * |-----------------|-------|---------|------------------|--------------------------------|
 * | read            | yes   | yes     | yes              | yes                            |
 * | write (create, upload, copy into) | yes | yes | yes   | yes                            |
 * | modify (rename, move, delete, lock, new version, restore version) | any entry | any entry | own entries | own entries |
 * | manageMembers   | yes   | members and managers (not owners) | no | -                 |
 * | renameGroup     | yes   | yes     | no               | -                              |
 * | deleteGroup     | yes   | no      | no               | -                              |
 *
 * A group always keeps at least one owner. A locked entry can be changed only by the locker (and
 * admins), whatever the role.
 */
export type SpaceAction = 'read' | 'write' | 'modifyAny' | 'modifyOwn' | 'manageMembers' | 'manageOwners' | 'renameGroup' | 'deleteGroup';

const GRANTS: Record<SpaceRole, readonly SpaceAction[]> = {
  owner: ['read', 'write', 'modifyAny', 'modifyOwn', 'manageMembers', 'manageOwners', 'renameGroup', 'deleteGroup'],
  manager: ['read', 'write', 'modifyAny', 'modifyOwn', 'manageMembers', 'renameGroup'],
  member: ['read', 'write', 'modifyOwn'],
};

/** What a public-space user (no role) may do. */
const PUBLIC_GRANTS: readonly SpaceAction[] = ['read', 'write', 'modifyOwn'];

/** May a caller with `role` (null = public space) do `action`? Admins: always. */
export function spaceAllows(role: SpaceRole | null, action: SpaceAction, isAdmin = false): boolean {
  if (isAdmin) return true;
  return (role === null ? PUBLIC_GRANTS : GRANTS[role]).includes(action);
}

/** May this caller modify (rename, move, delete, lock, version) an entry owned by `ownerId`? */
export function spaceMayModify(role: SpaceRole | null, callerId: string, ownerId: string, isAdmin = false): boolean {
  return spaceAllows(role, 'modifyAny', isAdmin) || (callerId === ownerId && spaceAllows(role, 'modifyOwn', isAdmin));
}

export const SPACE_ROLE_LABELS: Record<SpaceRole, string> = { owner: '所有者', manager: '管理员', member: '成员' };
