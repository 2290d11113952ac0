/**
 * Request and response payloads. Where spec §7 says a payload is "not shown", the shape here is our
 * design, and the server and every client import it from this file.
 */

// ---- config and menu -------------------------------------------------------------------------

export interface SystemConfig {
  /** URL of the tenant logo (served by the server), or '' when none. */
  logo: string;
  brandName: string;
}

export interface TenantConfig {
  tenantId: string;
  tenantName: string;
  /** Days before an initial/expired password must change; 0 = never expires. */
  passwordExpiryDays: number;
}

export interface MenuItem {
  /** Stable code, also used as React key. */
  code: string;
  /** Chinese label shown in the sidebar. */
  name: string;
  /** Route, e.g. '/main/file/personal'. Groups have the route of their first child. */
  url: string;
  /** Icon name the client maps to an icon (ours). */
  icon?: string;
  children?: MenuItem[];
}

/** A page button permission (spec §3): a button is shown only when its code is listed. */
export interface PagePermission {
  code: string;
}

export type HomeUrl = string;

/**
 * The desktop release the server offers (spec §3 client version info), the same for client type 3
 * (internal build) and 4 (public build). `versionName` '' means no release is published: nothing to
 * update. The client compares it with its own version; `isForce` makes the prompt non-dismissable.
 */
export interface ClientVersion {
  isForce: boolean;
  versionName: string;
  versionDesc: string;
}

// ---- login -------------------------------------------------------------------------------------

/**
 * Fields of the form-encoded `POST /spacex/login?ajax=true`. The password is AES-encrypted with
 * `encryptPassword` (common/crypto). `captchaId` + `captchaCode` answer `GET /api/captcha/generateBase64`;
 * the captcha is single-use and consumed before the password is looked at, so a captured login request
 * (its encrypted password bound to that one-time captcha) cannot be replayed.
 *
 * Login throttling (server side, documented here once for both sides):
 * - the image captcha is required on EVERY password login, so "captcha after N failures" is always on;
 * - failures are counted per account name (lower-cased, whether or not the account exists) and per
 *   client address; after LOGIN_SLOW_AFTER failures of the name, or LOGIN_ADDRESS_SLOW_AFTER from the
 *   address, each further attempt must wait a delay that doubles per failure (LOGIN_DELAY_BASE_MS ..
 *   LOGIN_DELAY_MAX_MS), else TOO_MANY_ATTEMPTS (with Retry-After); a success clears the name's count,
 *   never the address's (an attacker's own account must not reset it);
 * - after LOGIN_LOCK_AFTER failures of one account name it is locked until an admin unlocks it. Names
 *   that do not exist "lock" the same way, so the ACCOUNT_LOCKED answer reveals nothing. An account an
 *   admin locked answers LOGIN_FAILED to a wrong password and ACCOUNT_LOCKED only to the right one.
 * - unknown account and wrong password: same status, code, message, and the same scrypt work.
 * - a client sending `X-Network-Env: public` (the public-network build) is refused with
 *   OUTER_LOGIN_REFUSED, after the password check, when the account lacks outer login.
 */
export interface LoginForm {
  username: string;
  password: string;
  captchaId: string;
  captchaCode: string;
}

/**
 * What the server asks of the user after login (spec §2 `/initialPswChange?type=N`): 0 nothing,
 * 1 initial password, 2 expired password (older than the server's PASSWORD_EXPIRY_DAYS). While it is
 * not 0 every API answers PASSWORD_CHANGE_REQUIRED (1) or PASSWORD_EXPIRED (2) except the few the
 * change screen needs (details, menu, config, logout, info/modify, readAgreement).
 */
export type PasswordChangeType = 0 | 1 | 2;

export interface LoginResult {
  passwordChangeType: PasswordChangeType;
  homeUrl: string;
}


/** `GET /spacex/captcha/validate` query. */
export interface CaptchaValidateQuery {
  captchaId: string;
  captchaCode: string;
}

/** What a sent SMS code is for: logging in (public) or binding a phone to the caller (session required). */
export type SmsPurpose = 'login' | 'bindPhone';

/**
 * `GET /api/captcha/sms/send` query. The image captcha is required (and used up) so the endpoint cannot
 * be used to bomb phones; sends are further limited per phone and per client address. For purpose
 * login the answer is the same whether or not an account has this phone (no enumeration); the code is
 * only delivered to a phone that belongs to an account.
 */
export interface SmsSendQuery {
  phone: string;
  purpose: SmsPurpose;
  captchaId: string;
  captchaCode: string;
}

export interface SmsSendResult {
  /** Seconds the code stays valid (at most 600). */
  expiresIn: number;
  /** Seconds before another code may be requested for this phone. */
  resendAfter: number;
}

/**
 * SMS login. Codes are 6 digits, valid ≤ 10 minutes, single use, stored hashed; a code dies after
 * SMS_MAX_ATTEMPTS wrong tries. Unknown phone and wrong code answer the same SMS_CODE_INVALID.
 */
export interface SmsLoginRequest {
  phone: string;
  code: string;
}

/** Mainland mobile numbers: 11 digits, 13x to 19x. */
export const PHONE_PATTERN = /^1[3-9][0-9]{9}$/;
export const SMS_CODE_PATTERN = /^[0-9]{6}$/;

/** `POST /api/user/info/modify` kinds (spec §7: 4 = password). Only 4 exists so far. */
export const USER_INFO_TYPE = { password: 4 } as const;

/**
 * Password change. `value` and `oldPassword` are AES-encrypted (common/crypto/password-cipher). The
 * server checks the old password (wrong → OLD_PASSWORD_WRONG, counted like a login failure), enforces
 * the §5 rules of common/validation/password.ts (PASSWORD_INVALID carrying the §5 message), refuses the
 * same password (PASSWORD_SAME_AS_OLD), stores a new scrypt hash, lifts the initial/expired gate and
 * ends EVERY session of the user, the current one included: the client then goes to /login (spec §2).
 */
export interface UserInfoModifyRequest {
  value: string;
  type: 4;
  oldPassword: string;
}

export interface UserSearchRequest {
  /** Part of the account or nickname (ASCII letters case-insensitive); empty = everyone. */
  keyword?: string;
}

export const USER_SEARCH_LIMIT = 200;

/** One row of the admin's user list. */
export interface UserSummary {
  id: string;
  /** The login account. */
  website: string;
  nickName: string;
  phone: string;
  role: RoleCode;
  /** Locked by an admin or by failed logins. */
  locked: boolean;
  outerLogin: boolean;
}

/** Binds `phone` to the caller with the code sent by `sms/send?purpose=bindPhone`. */
export interface PhoneValidateRequest {
  phone: string;
  code: string;
}

/**
 * Role codes (spec §6 "role names: not shown"): a user holds exactly one. `admin` is the tenant
 * administrator (every adminOnly API, the system menu, all button permissions); `member` an ordinary
 * user. Names are what the UI shows.
 */
export type RoleCode = 'admin' | 'member';
export const ROLES: ReadonlyArray<{ code: RoleCode; name: string }> = [
  { code: 'admin', name: '管理员' },
  { code: 'member', name: '普通用户' },
];

/** Admin only. `roles` must hold exactly one code; the tenant's last admin cannot lose the role. */
export interface SetRolesRequest {
  userId: string;
  roles: RoleCode[];
}

export interface UserRoles {
  userId: string;
  roles: RoleCode[];
  /** Every role that can be given, for the picker. */
  available: ReadonlyArray<{ code: RoleCode; name: string }>;
}

/**
 * Admin only, same tenant (another tenant's id → USER_NOT_FOUND, 404). Lock ends the user's sessions (their next
 * call answers 400sec-core-301); an admin cannot lock themself. Unlock also clears the failure count.
 */
export interface AccountLockRequest {
  userId: string;
}

/**
 * Admin only. Whether the user may log in through the public-network build (X-Network-Env: public).
 * Turning it off also ends the user's public-network sessions.
 */
export interface OuterLoginSetRequest {
  userId: string;
  enabled: boolean;
}

export interface CaptchaImage {
  captchaId: string;
  /** `data:image/svg+xml;base64,...` */
  image: string;
  /** Seconds before the captcha expires. */
  expiresIn: number;
}

// ---- users -------------------------------------------------------------------------------------

export interface UserDetails {
  /** URL, already prefixed with the base URL (spec §3), or '' when none. */
  avatar: string;
  id: string;
  nickName: string;
  phone: string;
  /** Bytes. */
  quota: number;
  /** Bytes. */
  usedSize: number;
  /** The login account (spec §3). */
  website: string;
  role: RoleCode;
  /** Whether the initial or expired password must be changed first (see PasswordChangeType). */
  passwordChangeType: PasswordChangeType;
  /** POST /api/user/readAgreement was called by this user. */
  agreementRead: boolean;
  /** May log in through the public-network build. */
  outerLogin: boolean;
}

// ---- files -------------------------------------------------------------------------------------

/** Spec §3 file categories: 1 personal, 2 shared, 3 exchange area, any other value synced files. */
export const FILE_CATEGORY = { personal: 1, shared: 2, exchange: 3, synced: 4 } as const;
export type FileCategory = number;

export type FileKind =
  | 'word'
  | 'excel'
  | 'ppt'
  | 'pdf'
  | 'txt'
  | 'picture'
  | 'video'
  | 'music'
  | 'package'
  | 'unknown'
  | 'folder'
  | 'groupFolder';

export interface FileEntry {
  id: string;
  /** null for an entry at the root of its category. */
  parentId: string | null;
  name: string;
  isDir: boolean;
  /** Bytes; 0 for folders. */
  size: number;
  kind: FileKind;
  category: FileCategory;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

export type FileSortField = 'name' | 'size' | 'updatedAt';
export type SortOrder = 'asc' | 'desc';

export interface FileListRequest {
  parentId: string | null;
  category: FileCategory;
  sortField?: FileSortField;
  sortOrder?: SortOrder;
  /** Opaque keyset cursor from the previous page's `nextCursor`. */
  cursor?: string | null;
  /** 1..500, default 100. */
  pageSize?: number;
}

export interface FileListResponse {
  items: FileEntry[];
  /** null when this was the last page. */
  nextCursor: string | null;
}

export interface FileCatalogRequest {
  /** The folder whose path is wanted; null = root. */
  id: string | null;
}

/** Path from the root to the folder, root first (the root itself is not included). */
export interface FileCatalogResponse {
  path: Array<Pick<FileEntry, 'id' | 'name'>>;
}

export interface MkdirRequest {
  parentId: string | null;
  category: FileCategory;
  name: string;
}

export interface RenameRequest {
  id: string;
  name: string;
}

export const FILE_LIST_DEFAULT_PAGE_SIZE = 100;
export const FILE_LIST_MAX_PAGE_SIZE = 500;
