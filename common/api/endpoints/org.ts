import { Type, type Static } from 'typebox';
import { PHONE_MASK_RULES, type PhoneMaskRule } from '../../org/phone-mask';
import { data, endpoint } from '../endpoint';
import type { DepartmentNode, OrgTree, OrgUserPage } from '../org-types';
import { API } from '../paths';
import { IdString, NameString, NullableId } from '../schemas';

/**
 * The organisation (issue 14; payloads in ../org-types.ts): the three orgUser calls are spec §7's, for
 * any signed-in user; the department calls and the phone rule are ours and admin only. Every id is
 * checked against the caller's tenant: another tenant's ids answer 404 like unknown ones.
 */

const Page = { cursor: Type.Optional(Type.String({ maxLength: 400 })), pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })) };

export const OrgUserListQuerySchema = Type.Object({
  departmentId: Type.Optional(IdString),
  includeSub: Type.Optional(Type.Enum(['0', '1'])),
  keyword: Type.Optional(Type.String({ maxLength: 64 })),
  ...Page,
});
export type OrgUserListQuery = Static<typeof OrgUserListQuerySchema>;

/** People directly in the department, or members of a group space the caller may see (admins: any group of the tenant). Exactly one of the two ids. */
export const OrgGroupUserListQuerySchema = Type.Object({ departmentId: Type.Optional(IdString), groupId: Type.Optional(IdString), ...Page });
export type OrgGroupUserListQuery = Static<typeof OrgGroupUserListQuerySchema>;

/** `parentId` null = top level. */
export const DepartmentCreateBody = Type.Object({ parentId: NullableId, name: NameString, managerId: Type.Optional(NullableId) }, { additionalProperties: false });
export type DepartmentCreateRequest = Static<typeof DepartmentCreateBody>;

/** Rename and/or set the manager (null clears it). */
export const DepartmentUpdateBody = Type.Object({ id: IdString, name: Type.Optional(NameString), managerId: Type.Optional(NullableId) }, { additionalProperties: false });
export type DepartmentUpdateRequest = Static<typeof DepartmentUpdateBody>;

/**
 * Under `parentId` (null = top level), placed before `beforeId` (a sibling there) or last when
 * absent/null. The same parent only reorders. Never under itself or one of its descendants
 * (DEPT_MOVE_CYCLE), checked in the write's transaction, so two concurrent moves cannot build a cycle.
 */
export const DepartmentMoveBody = Type.Object({ id: IdString, parentId: NullableId, beforeId: Type.Optional(NullableId) }, { additionalProperties: false });
export type DepartmentMoveRequest = Static<typeof DepartmentMoveBody>;

/** Delete is refused while the department has sub-departments or people (the reason says how many). */
export const DepartmentIdBody = Type.Object({ id: IdString }, { additionalProperties: false });
export type DepartmentIdRequest = Static<typeof DepartmentIdBody>;

/** The tenant's address-list phone rule (common/org/phone-mask.ts). */
export const OrgSettingsBody = Type.Object({ phoneMask: Type.Unsafe<PhoneMaskRule>(Type.Enum(PHONE_MASK_RULES.map((r) => r.value))) }, { additionalProperties: false });
export type OrgSettingsRequest = Static<typeof OrgSettingsBody>;

export const ORG = {
  /** The tenant's whole department tree, the caller's department and the phone rule. */
  tree: endpoint({ method: 'GET', path: API.orgTree, access: 'member', action: null, response: data<OrgTree>() }),
  userList: endpoint({ method: 'GET', path: API.orgUserList, access: 'member', action: null, query: OrgUserListQuerySchema, response: data<OrgUserPage>() }),
  groupUserList: endpoint({ method: 'GET', path: API.orgGroupUserList, access: 'member', action: null, query: OrgGroupUserListQuerySchema, response: data<OrgUserPage>() }),
  departmentCreate: endpoint({ method: 'POST', path: API.departmentCreate, access: 'admin', action: 'dept.create', body: DepartmentCreateBody, response: data<DepartmentNode>() }),
  departmentUpdate: endpoint({ method: 'POST', path: API.departmentUpdate, access: 'admin', action: 'dept.rename', body: DepartmentUpdateBody, response: data<DepartmentNode>() }),
  departmentMove: endpoint({ method: 'POST', path: API.departmentMove, access: 'admin', action: 'dept.move', body: DepartmentMoveBody, response: data<DepartmentNode>() }),
  departmentDelete: endpoint({ method: 'POST', path: API.departmentDelete, access: 'admin', action: 'dept.delete', body: DepartmentIdBody, response: data<null>() }),
  settingsUpdate: endpoint({ method: 'POST', path: API.orgSettingsUpdate, access: 'admin', action: 'tenant.settingChange', body: OrgSettingsBody, response: data<null>() }),
};
