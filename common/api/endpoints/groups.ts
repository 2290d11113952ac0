import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { IdString, NameString } from '../schemas';
import type { GroupMemberListResponse, SpaceInfo } from '../types';

/** Group spaces and the public space (ours; roles in common/files/space-roles.ts). */

export const SpaceRoleSchema = Type.Enum(['owner', 'manager', 'member']);
const Account = Type.String({ minLength: 1, maxLength: 64 });

/** Group names follow §5's second rule (Chinese, letters, digits, underscore). */
export const GroupCreateBody = Type.Object({ name: NameString });
export type GroupCreateRequest = Static<typeof GroupCreateBody>;
export const GroupRenameBody = Type.Object({ id: IdString, name: NameString });
export type GroupRenameRequest = Static<typeof GroupRenameBody>;
export const GroupIdBody = Type.Object({ id: IdString });
export type GroupIdRequest = Static<typeof GroupIdBody>;
/** Adds by login account (`website` of UserDetails) of the same tenant; role default 'member'. */
export const GroupMemberAddBody = Type.Object({ id: IdString, username: Account, role: Type.Optional(SpaceRoleSchema) });
export type GroupMemberAddRequest = Static<typeof GroupMemberAddBody>;
export const GroupMemberSetRoleBody = Type.Object({ id: IdString, userId: IdString, role: SpaceRoleSchema });
export type GroupMemberSetRoleRequest = Static<typeof GroupMemberSetRoleBody>;
export const GroupMemberRemoveBody = Type.Object({ id: IdString, userId: IdString });
export type GroupMemberRemoveRequest = Static<typeof GroupMemberRemoveBody>;

const member = 'member' as const;

export const GROUPS = {
  /** The caller's group spaces. */
  list: endpoint({ method: 'POST', path: API.groupList, access: member, action: null, response: data<SpaceInfo[]>() }),
  /** The tenant's public space (everyone of the tenant may use it). */
  publicSpace: endpoint({ method: 'POST', path: API.publicSpace, access: member, action: null, response: data<SpaceInfo>() }),
  create: endpoint({ method: 'POST', path: API.groupCreate, access: member, action: 'group.create', body: GroupCreateBody, response: data<SpaceInfo>() }),
  rename: endpoint({ method: 'POST', path: API.groupRename, access: member, action: 'group.rename', body: GroupRenameBody, response: data<SpaceInfo>() }),
  delete: endpoint({ method: 'POST', path: API.groupDelete, access: member, action: 'group.delete', body: GroupIdBody, response: data<null>() }),
  memberList: endpoint({ method: 'POST', path: API.groupMemberList, access: member, action: null, body: GroupIdBody, response: data<GroupMemberListResponse>() }),
  memberAdd: endpoint({ method: 'POST', path: API.groupMemberAdd, access: member, action: 'group.memberAdd', body: GroupMemberAddBody, response: data<GroupMemberListResponse>() }),
  memberSetRole: endpoint({
    method: 'POST',
    path: API.groupMemberSetRole,
    access: member,
    action: 'group.memberRole',
    body: GroupMemberSetRoleBody,
    response: data<GroupMemberListResponse>(),
  }),
  memberRemove: endpoint({
    method: 'POST',
    path: API.groupMemberRemove,
    access: member,
    action: 'group.memberRemove',
    body: GroupMemberRemoveBody,
    response: data<GroupMemberListResponse>(),
  }),
};
