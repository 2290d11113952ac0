import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import type { HandOverFilesResponse, UserListResponse, UserRow } from '../org-types';
import { API } from '../paths';
import { IdList, IdString, RoleCodeSchema } from '../schemas';

/** 用户管理 (admin only, ours; rows and rules in ../org-types.ts). */

const Text = (maxLength: number) => Type.String({ maxLength });
/** Passwords travel AES-encrypted like every password (common/crypto). */
const CipherText = Text(512);

/**
 * A person's profile: what the admin sets on add and on edit alike (the form of 新增用户 / 编辑用户),
 * what a good row of an import holds, and what 用户管理 lists (UserRow). `website` is the login account.
 */
const AccountProfileSchema = Type.Object({
  website: Text(64),
  nickName: Text(128),
  phone: Text(32),
  departmentId: IdString,
  role: RoleCodeSchema,
  /** Bytes. */
  quota: Type.Integer({ minimum: 0 }),
  outerLogin: Type.Boolean(),
});
export type AccountProfile = Static<typeof AccountProfileSchema>;

export const UserListBody = Type.Object(
  {
    departmentId: Type.Optional(IdString),
    /** With sub-departments (default true). */
    includeSub: Type.Optional(Type.Boolean()),
    role: Type.Optional(RoleCodeSchema),
    state: Type.Optional(Type.Enum(['active', 'locked', 'mustChange'])),
    /** Part of the account, nickname or phone. */
    keyword: Type.Optional(Text(64)),
    cursor: Type.Optional(Type.Union([Text(400), Type.Null()])),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);
export type UserListRequest = Static<typeof UserListBody>;

/**
 * `password` is the initial password, checked against the §5 rules; the user must change it at first
 * login (passwordChangeType 1). `quota` must be one of the static list `quota` (common/org/quota.ts).
 */
export const UserAddBody = Type.Object({ ...AccountProfileSchema.properties, password: CipherText }, { additionalProperties: false });
export type UserAddRequest = Static<typeof UserAddBody>;

/**
 * `password`, when given, resets the password to a new initial one: the user must change it at next
 * login and their sessions end. Changing role, outer login or account follows the same rules as their
 * own calls (last admin kept; outer login off ends public sessions).
 */
export const UserEditBody = Type.Object({ id: IdString, ...AccountProfileSchema.properties, password: Type.Optional(CipherText) }, { additionalProperties: false });
export type UserEditRequest = Static<typeof UserEditBody>;

/** Moves several people into one department. */
export const UserSetDepartmentBody = Type.Object({ ids: IdList, departmentId: IdString }, { additionalProperties: false });
export type UserSetDepartmentRequest = Static<typeof UserSetDepartmentBody>;

/**
 * Refused while the user owns files, live or in the recycle bin (USER_HAS_FILES: hand them over first),
 * for the caller's own account and for the last admin. The account is then gone for good: its name and
 * phone are free again, its sessions, group memberships, favourites and pending uploads end; what it
 * did stays attributed to it.
 */
export const UserDeleteBody = Type.Object({ id: IdString }, { additionalProperties: false });
export type UserDeleteRequest = Static<typeof UserDeleteBody>;

/**
 * Every file and folder `fromId` owns (live and in the recycle bin, group-space entries included)
 * becomes `toId`'s, in one transaction. Entries of the personal categories land in a new folder
 * 「<nickname>（<account>）的文件」 in the same category of the recipient; the used space moves with them
 * and the recipient's quota grows by the same amount, so the recipient's free space is unchanged. In
 * code this is a hand-over ("transfer" means uploads and downloads, 传输); the spec's path and the
 * action code keep their names.
 */
export const HandOverFilesBody = Type.Object({ fromId: IdString, toId: IdString }, { additionalProperties: false });
export type HandOverFilesRequest = Static<typeof HandOverFilesBody>;

const admin = 'admin' as const;

export const USER_ADMIN = {
  /** Keyset pages. */
  list: endpoint({ method: 'POST', path: API.userList, access: admin, action: null, body: UserListBody, response: data<UserListResponse>() }),
  get: endpoint({ method: 'GET', path: API.userGet, access: admin, action: null, query: Type.Object({ id: IdString }), response: data<UserRow>() }),
  add: endpoint({ method: 'POST', path: API.userAdd, access: admin, action: 'user.create', body: UserAddBody, response: data<UserRow>() }),
  edit: endpoint({ method: 'POST', path: API.userEdit, access: admin, action: 'user.update', body: UserEditBody, response: data<UserRow>() }),
  setDepartment: endpoint({ method: 'POST', path: API.userSetDepartment, access: admin, action: 'user.update', body: UserSetDepartmentBody, response: data<{ moved: number }>() }),
  delete: endpoint({ method: 'POST', path: API.userDelete, access: admin, action: 'user.delete', body: UserDeleteBody, response: data<null>() }),
  handOverFiles: endpoint({ method: 'POST', path: API.userTransferFiles, access: admin, action: 'user.transferFiles', body: HandOverFilesBody, response: data<HandOverFilesResponse>() }),
};
