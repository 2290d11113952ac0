import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import { IdString, RoleCodeSchema } from '../schemas';
import type { SignedInDevice, UserDetails, UserRoles, UserSummary } from '../types';

/**
 * The signed-in user's own account (agreement, password, phone) and the admin's account switches
 * (roles, lock, outer login, the user search behind them). Payload rules are on the schemas below;
 * answers in ../types.ts.
 */

/** Passwords travel AES-encrypted (common/crypto/password-cipher, spec §9). */
const CipherText = Type.String({ maxLength: 512 });

/**
 * Password change (spec §7: `type` 4 = password, USER_INFO_TYPE). `value` and `oldPassword` are
 * AES-encrypted. The server checks the old password (wrong → OLD_PASSWORD_WRONG, counted like a login
 * failure), enforces the §5 rules of common/validation/password.ts (PASSWORD_INVALID carrying the §5
 * message), refuses the same password (PASSWORD_SAME_AS_OLD), stores a new scrypt hash, lifts the
 * initial/expired gate and ends EVERY session of the user, the current one included. This device then
 * gets a NEW session (a fresh token in the cookie: a new token on re-authentication, as ASVS asks), so
 * the user goes on without signing in again (issue 44, instead of spec §2's logout and login) while
 * every other device is signed out.
 */
export const UserInfoModifyBody = Type.Object({ value: CipherText, type: Type.Enum([4], { type: 'integer' }), oldPassword: CipherText });
export type UserInfoModifyRequest = Static<typeof UserInfoModifyBody>;

/**
 * Binds `phone` to the caller with the code sent by `sms/send?purpose=bindPhone`. `password` is the
 * caller's login password, AES-encrypted: a stolen session cannot add or swap the phone that SMS login
 * and 忘记密码 trust (wrong → PASSWORD_WRONG, counted like a login failure, throttled alike). Replacing
 * a bound phone also takes `oldCode`, the code sent to the phone bound now (purpose verifyPhone),
 * whenever the server's SMS gateway delivers (UserDetails.smsDelivery; else OLD_PHONE_CODE_REQUIRED).
 */
export const PhoneValidateBody = Type.Object({
  phone: Type.String({ maxLength: 32 }),
  code: Type.String({ maxLength: 16 }),
  password: CipherText,
  oldCode: Type.Optional(Type.String({ maxLength: 16 })),
});
export type PhoneValidateRequest = Static<typeof PhoneValidateBody>;

/** Without `userId` the caller's own roles; another user's need an admin. */
export const GetRolesQuery = Type.Object({ userId: Type.Optional(IdString) });

/** `roles` must hold exactly one code; the tenant's last admin cannot lose the role. */
export const SetRolesBody = Type.Object({ userId: IdString, roles: Type.Array(RoleCodeSchema, { minItems: 1, maxItems: 1 }) });
export type SetRolesRequest = Static<typeof SetRolesBody>;

/** Part of the account or nickname (ASCII letters case-insensitive); empty = everyone. */
export const UserSearchBody = Type.Object({ keyword: Type.Optional(Type.String({ maxLength: 64 })) });
export type UserSearchRequest = Static<typeof UserSearchBody>;

/**
 * Same tenant (another tenant's id → USER_NOT_FOUND, 404). Lock ends the user's sessions (their next
 * call answers 400sec-core-301); an admin cannot lock themself. Unlock also clears the failure count.
 */
export const AccountLockBody = Type.Object({ userId: IdString });
export type AccountLockRequest = Static<typeof AccountLockBody>;

/**
 * Whether the user may log in through the public-network build (X-Network-Env: public). Turning it
 * off also ends the user's public-network sessions.
 */
export const OuterLoginSetBody = Type.Object({ userId: IdString, enabled: Type.Boolean() });
export type OuterLoginSetRequest = Static<typeof OuterLoginSetBody>;

/**
 * 基本信息 (ours): each field given is changed; nickName by the rules of common/org/account.ts. The
 * avatar comes as base64 (a `data:` URL allowed) of a PNG, JPG, WebP or GIF of at most 2 MiB decoded
 * (the bound leaves room for the encoding); the server keeps a 256 px WebP and UserDetails.avatar
 * becomes its URL under API.userAvatarPrefix.
 */
export const ProfileUpdateBody = Type.Object(
  { nickName: Type.Optional(Type.String({ maxLength: 256 })), avatar: Type.Optional(Type.String({ maxLength: 3 * 1024 * 1024 })) },
  { additionalProperties: false },
);
export type ProfileUpdateRequest = Static<typeof ProfileUpdateBody>;

/** 退出 one signed-in device: its SignedInDevice.id (another user's, or an ended one → SESSION_NOT_FOUND, 404). */
export const SessionEndBody = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type SessionEndRequest = Static<typeof SessionEndBody>;

/** An avatar's key: a new picture gets a new key, so its URL never changes. */
export const AvatarParams = Type.Object({ key: Type.String({ maxLength: 128 }) });

const admin = 'admin' as const;

export const ACCOUNT = {
  /** Who is signed in (spec §7 "user details"); also during a forced password change. */
  userDetails: endpoint({ method: 'POST', path: API.userDetails, access: 'duringPasswordChange', action: null, whileGestureLocked: true, response: data<UserDetails>() }),
  /** Records that the caller accepted the user agreement (UserDetails.agreementRead); part of the first login. */
  /** The caller's nickname and/or avatar → the updated details. */
  profileUpdate: endpoint({ method: 'POST', path: API.userProfileUpdate, access: 'member', action: 'account.profileUpdate', body: ProfileUpdateBody, response: data<UserDetails>() }),
  /** The WebP avatar, for users of the owner's tenant (others: 404). */
  avatar: endpoint({ method: 'GET', path: `${API.userAvatarPrefix}:key`, access: 'member', action: null, whileGestureLocked: true, params: AvatarParams, response: bytes }),
  readAgreement: endpoint({ method: 'POST', path: API.readAgreement, access: 'duringPasswordChange', action: 'account.agreementRead', response: data<null>() }),
  /** The password change; also during the forced change it exists for. Every session ends; this device gets a new one. */
  userInfoModify: endpoint({
    method: 'POST',
    path: API.userInfoModify,
    access: 'duringPasswordChange',
    action: 'account.passwordChange',
    body: UserInfoModifyBody,
    response: data<null>(),
  }),
  phoneValidate: endpoint({ method: 'POST', path: API.phoneValidate, access: 'member', action: 'account.phoneBind', body: PhoneValidateBody, response: data<null>() }),
  /** 账号安全: the caller's signed-in devices (active sessions), most recently active first, this one marked. */
  sessions: endpoint({ method: 'GET', path: API.accountSessions, access: 'member', action: null, response: data<SignedInDevice[]>() }),
  /** Signs one of the caller's other devices out (its next call answers 400sec-core-301). */
  sessionEnd: endpoint({ method: 'POST', path: API.accountSessionEnd, access: 'member', action: 'account.sessionEnd', body: SessionEndBody, response: data<null>() }),
  /** 退出其他设备: every session of the caller but this one; answers how many ended. */
  sessionEndOthers: endpoint({ method: 'POST', path: API.accountSessionEndOthers, access: 'member', action: 'account.sessionEndOthers', response: data<{ ended: number }>() }),
  getRoles: endpoint({ method: 'GET', path: API.getRoles, access: 'member', action: null, query: GetRolesQuery, response: data<UserRoles>() }),
  setRoles: endpoint({ method: 'POST', path: API.setRoles, access: admin, action: 'user.setRole', body: SetRolesBody, response: data<UserRoles>() }),
  /**
   * User management: UserSummary[] of the caller's tenant, at most USER_SEARCH_LIMIT, ordered by
   * account. Gives admins the ids the calls below take.
   */
  userSearch: endpoint({ method: 'POST', path: API.userSearch, access: admin, action: null, body: UserSearchBody, response: data<UserSummary[]>() }),
  lock: endpoint({ method: 'POST', path: API.accountLock, access: admin, action: 'user.lock', body: AccountLockBody, response: data<null>() }),
  unlock: endpoint({ method: 'POST', path: API.accountUnlock, access: admin, action: 'user.unlock', body: AccountLockBody, response: data<null>() }),
  outerLoginSet: endpoint({ method: 'POST', path: API.outerLoginSet, access: admin, action: 'user.outerLogin', body: OuterLoginSetBody, response: data<null>() }),
};
