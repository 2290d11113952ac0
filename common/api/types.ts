import type { ExchangeInfo, ShareGrantInfo } from './sharing';

/**
 * Request and response payloads. Where spec §7 says a payload is "not shown", the shape here is our
 * design, and the server and every client import it from this file.
 */

// ---- config and menu -------------------------------------------------------------------------

export interface SystemConfig {
  /** URL of the tenant logo (served by the server), or '' when none. */
  logo: string;
  brandName: string;
  /** URL of the tenant's login background picture (POST /api/tenant/update), or '' for the default. */
  loginBackground?: string;
  /**
   * Ours: the tenant's help line, the `customerTelephone` static-data entry ('' when turned off),
   * shown where people look for help before and after login (login page, 404, 个人中心).
   */
  customerTelephone?: string;
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
  /**
   * A page the menu grants (the route guard lets it through) but the sidebar does not list: the
   * keyword search page opens from the file toolbar, not from the menu.
   */
  hidden?: boolean;
  children?: MenuItem[];
}

/** A page button permission (spec §3): a button is shown only when its code is listed. */
export interface PagePermission {
  code: string;
}

export type HomeUrl = string;

/**
 * The desktop release the server offers (spec §3 client version info) for client type 3 (internal
 * build) or 4 (public build), each its own. `versionName` '' means no release is published: nothing to
 * update. The client compares it with its own version; `isForce` makes the prompt non-dismissable.
 */
export interface ClientVersion {
  isForce: boolean;
  versionName: string;
  versionDesc: string;
  /**
   * Ours: where the desktop's updater finds the release (electron-updater's generic provider: the
   * folder holding latest.yml / latest-mac.yml / latest-linux.yml and the installers), relative to
   * the server; absent when the server keeps no release files (DESKTOP_RELEASE_DIR unset).
   */
  updateUrl?: string;
  /**
   * Ours: the installer the tenant's admin uploaded for this client type (client-releases.ts), to
   * download and run; absent when none is set. Takes precedence over `updateUrl`.
   */
  installer?: ClientInstaller;
}

/** The installer a release names: the desktop downloads `url`, then checks `size` and `digest`. */
export interface ClientInstaller {
  url: string;
  name: string;
  size: number;
  /**
   * The file's content fingerprint as the server stores it (common/transfer/protocol.ts: SHA-256 over
   * the chunk digests of `chunkSize`-byte chunks, chunk-digest.ts), for the desktop to check what it
   * downloaded; absent when the server has none to give.
   */
  digest?: { fingerprint: string; chunkSize: number };
}

/** 客户端版本 as 系统配置 shows one client type's release (admins). */
export interface ClientRelease {
  clientType: 3 | 4;
  versionName: string;
  versionDesc: string;
  isForce: boolean;
  /** The installer's file (null: none, or the file was deleted since). */
  file: { id: string; name: string; size: number } | null;
  updatedAt: number | null;
}

// ---- login -------------------------------------------------------------------------------------

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

/** The login calls' payloads (LoginForm, SmsSendQuery, SmsLoginRequest, PasswordResetRequest, …) are declared with them in endpoints/auth.ts. */

export interface SmsSendResult {
  /** Seconds the code stays valid (at most 600). */
  expiresIn: number;
  /** Seconds before another code may be requested for this phone. */
  resendAfter: number;
}

/** Mainland mobile numbers: 11 digits, 13x to 19x. */
export const PHONE_PATTERN = /^1[3-9][0-9]{9}$/;
export const SMS_CODE_PATTERN = /^[0-9]{6}$/;

/** The account calls' payloads (UserInfoModifyRequest, SetRolesRequest, …) are declared with them in endpoints/account.ts. */

/** `POST /api/user/info/modify` kinds (spec §7: 4 = password). Only 4 exists so far. */
export const USER_INFO_TYPE = { password: 4 } as const;

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

export interface UserRoles {
  userId: string;
  roles: RoleCode[];
  /** Every role that can be given, for the picker. */
  available: ReadonlyArray<{ code: RoleCode; name: string }>;
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
  /** Ours: with `id`, the partition of the client's offline cache (one per tenant and account). */
  tenantId: string;
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
  /**
   * The server's SMS gateway really delivers codes: 更换手机号 then also asks for a code sent to the
   * phone bound now (purpose verifyPhone). Absent from older servers = false.
   */
  smsDelivery?: boolean;
}

/** One signed-in device of the caller (账号安全), from GET API.accountSessions. */
export interface SignedInDevice {
  /** The session's public id (never its token): what 退出 names. */
  id: string;
  /** 'Windows 电脑', 'iPhone', 'Android 手机'… from the User-Agent ('未知设备' without one). */
  device: string;
  /** 'Chrome 120', 'Edge', '企业云盘桌面客户端'… ('' when unknown). */
  browser: string;
  /** The address last seen, or null (sessions from before the device list). */
  address: string | null;
  signedInAt: number;
  lastActiveAt: number;
  networkEnv: 'internal' | 'public';
  /** The session this request came with (this device). */
  current: boolean;
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

/**
 * Entries inside group spaces and the public space carry this category (not one of §3's values, and
 * refused by the category-based calls): they are reached through `spaceId`, never by category.
 */
export const SPACE_CATEGORY = 0;

/** Which §3 category each file page lists (共享文件 and 其他 use their own category). */
export const FILE_PAGE_CATEGORY = {
  personal: FILE_CATEGORY.personal,
  /** 共享文件 (`/main/file/share`, listed through `/api/shareFile/list`). */
  share: FILE_CATEGORY.shared,
  /** 其他 (`/main/file/other`): the exchange area. */
  other: FILE_CATEGORY.exchange,
  /** 同步文件 (`/main/file/backups`): synced files. */
  backups: FILE_CATEGORY.synced,
} as const;

/** Who holds a lock. */
export interface UserRef {
  id: string;
  nickName: string;
}

export interface FileEntry {
  id: string;
  /** null for an entry at the root of its category (or, in a space, the space's root folder itself). */
  parentId: string | null;
  name: string;
  isDir: boolean;
  /** Bytes; 0 for folders. */
  size: number;
  /** §3 kind; 'groupFolder' for the root folder of a group space. */
  kind: FileKind;
  category: FileCategory;
  /** Group or public space holding the entry; null = the owner's personal categories. */
  spaceId: string | null;
  ownerId: string;
  /**
   * In a group or the public space: who uploaded (owns) the entry, with the name shown in 上传者.
   * Absent outside spaces (the caller's own files).
   */
  owner?: UserRef;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** §3 encrypted variant of the kind (stored flag; the icon shows the encrypted variant). */
  encrypted: boolean;
  // ---- §3 states -----------------------------------------------------------------------------
  /** In the recycle bin (only recycle-bin listings return such entries). */
  deleted: boolean;
  /** Recycle bin: when it went there; null otherwise. */
  deletedAt: number | null;
  /** Recycle bin: when the automatic purge removes it for good; null otherwise. */
  expiresAt: number | null;
  /** Recycle bin: past `expiresAt`, waiting for the next purge pass. */
  expired: boolean;
  /** Recycle-bin listings only: where it was deleted from (原位置). */
  origin?: TrashOrigin;
  /** The name — or the text inside the file (see sensitiveContent) — contains one of the tenant's sensitive keywords. */
  sensitive: boolean;
  /** The text inside the file holds a sensitive keyword: the first one, and its page for paged documents. */
  sensitiveContent?: { keyword: string; page: number | null };
  /** Someone holds the lock; only they (and admins) may unlock, nobody else may change the file. */
  locked: boolean;
  lockedBy: UserRef | null;
  /** The caller has it in 我的收藏. */
  favorite: boolean;
  /** Number of earlier versions kept (0 = only the current content). Always 0 for folders. */
  versionCount: number;
  /** Reached through a share (共享文件): the caller's permission there (sharing.ts). */
  share?: ShareGrantInfo;
  /** An exchange-area file (category 3): its side and crossing state (sharing.ts). */
  exchange?: ExchangeInfo;
}

/** 原位置 of a recycle-bin entry: the folder it was deleted from. */
export interface TrashOrigin {
  /** '个人文件/项目/2024' (the page or space name, then the folders); the names as they were at deletion. */
  path: string;
  /** That folder is deleted or purged since: 还原 recreates it. */
  gone: boolean;
}

export type FileSortField = 'name' | 'size' | 'updatedAt';
export type SortOrder = 'asc' | 'desc';

/** A folder listing's page (FileListRequest in endpoints/files.ts). */
export interface FileListResponse {
  items: FileEntry[];
  /** null when this was the last page. */
  nextCursor: string | null;
}

/** Path from the root to the folder, root first (the root itself is not included). */
export interface FileCatalogResponse {
  path: Array<Pick<FileEntry, 'id' | 'name'>>;
}

export const FILE_LIST_DEFAULT_PAGE_SIZE = 100;
export const FILE_LIST_MAX_PAGE_SIZE = 500;

// ---- file operations (payloads the spec does not show: our design) ------------------------------

/** `POST /api/file/multi/list`: the entries found (unknown or inaccessible ids are left out). */
export interface FileMultiListResponse {
  items: FileEntry[];
}

/** `POST /api/file/dir/list`: one level of the folder-picker tree (folders only, sorted by name). */
export interface DirNode {
  id: string;
  name: string;
  /** Has at least one live sub-folder (the tree shows an expander). */
  hasChildren: boolean;
}
export interface DirListResponse {
  items: DirNode[];
}

/**
 * What to do with one item whose name is taken at the target (copy, move, restore):
 * - 'rename': place it as 'name (n).ext';
 * - 'overwrite': files only — its content becomes a new version of the existing file (the existing
 *   file keeps its id and history; refused when that file is locked by someone else). A folder onto
 *   a folder answers FOLDER_OVERWRITE_UNSUPPORTED: choose rename or skip;
 * - 'skip': leave it where it is.
 */
export type ConflictDecision = 'rename' | 'overwrite' | 'skip';

/** One name clash, listed by the CONFLICT_DECISION_REQUIRED error (field `conflicts` of its body). */
export interface NameConflict {
  /** The item being copied/moved/restored. */
  id: string;
  name: string;
  /** The entry already holding that name at the target. */
  existingId: string;
  existingIsDir: boolean;
  /** A free name the 'rename' decision would use now. */
  suggestedName: string;
}

/** `POST /api/v2/file/copy` and `/api/v2/file/move` (CopyMoveRequest in endpoints/files.ts). */
export interface CopyMoveResponse {
  /** The placed top-level entries (copies for copy; the moved entries for move). */
  items: FileEntry[];
  /** Ids left in place by a 'skip' decision. */
  skipped: string[];
}

/** `POST /api/file/removeFiles`: to the recycle bin (folders with their tree). */
export interface RemoveFilesResponse {
  removed: number;
}

/** Recycle-bin restore (RecycleRestoreRequest in endpoints/file-states.ts). */
export interface RecycleRestoreResponse {
  items: FileEntry[];
  skipped: string[];
}
export interface RecyclePurgeResponse {
  purged: number;
}

/** favorite add/remove, lock, unlock, version restore. */
export interface IdsResponse {
  /** Entries after the change. */
  items: FileEntry[];
}

export interface FileVersion {
  /** Version id (for restore/download); the current content has the file's id and `current: true`. */
  id: string;
  /** 1 = oldest; the current content has the highest number. */
  versionNo: number;
  size: number;
  createdAt: number;
  createdBy: UserRef;
  current: boolean;
}
export interface VersionListResponse {
  /** Newest first; the first is the current content. */
  versions: FileVersion[];
}

/**
 * `POST /api/file/createTxt` (CreateTxtRequest in endpoints/files.ts).
 * 'created': the file is there. 'held': the name is taken; the text is kept under `holdId` until
 * keepOnCreateTxt decides (held texts expire with the upload expiry).
 */
export type CreateTxtResponse =
  | { status: 'created'; file: FileEntry }
  | { status: 'held'; holdId: string; conflict: { existingId: string; existingIsDir: boolean; suggestedName: string } };
export type KeepOnCreateTxtResponse = { status: 'created'; file: FileEntry } | { status: 'givenUp' };

/** The search calls' hits (KeywordSearchQuery in endpoints/files.ts). */
export interface SearchHit extends FileEntry {
  /** Path of the containing folder, root first ('' parts omitted), e.g. ['项目', '2024']. */
  path: string[];
  /** Group or public space name; null for the caller's own files. */
  spaceName: string | null;
}
export interface SearchResponse {
  items: SearchHit[];
  nextCursor: string | null;
  /**
   * Unified search only: files whose extracted text holds the keyword (search inside files,
   * docs/documents.md). Present on the first page (no cursor) and on a `contentCursor` page (whose
   * `items` are then empty); absent on a `cursor` page of names.
   */
  content?: ContentSearchPage;
}

/** Content hits per page (fewer with a smaller `pageSize`): each carries a snippet. */
export const CONTENT_PAGE_SIZE = 20;

/** A page of content hits, newest text first. */
export interface ContentSearchPage {
  items: ContentHit[];
  /** The `contentCursor` of the next page; null when this was the last. */
  nextCursor: string | null;
}

/** One piece of a content snippet; the client marks the pieces with `mark` (the server sends no HTML). */
export interface SnippetSegment {
  text: string;
  mark: boolean;
}

/** A file whose text holds the keyword, and where. */
export interface ContentHit extends SearchHit {
  match: {
    /** 1-based page of the first match for paged documents (PDFs, Office renditions); null otherwise. */
    page: number | null;
    /** About a line around the first match, every occurrence of the keyword in it marked. */
    snippet: SnippetSegment[];
  };
}

// ---- spaces (public space, group spaces) -------------------------------------------------------

/** The public space's id alias in requests (each tenant has one public space). */
export const PUBLIC_SPACE_ID = 'public';

export type SpaceRole = 'owner' | 'manager' | 'member';

export interface SpaceInfo {
  id: string;
  kind: 'group' | 'public';
  name: string;
  /** The space's root folder (list it with parentId null + spaceId). */
  rootId: string;
  /** The caller's role; null in the public space (everyone of the tenant may use it). */
  myRole: SpaceRole | null;
  memberCount: number;
  createdAt: number;
}

export interface SpaceMember {
  userId: string;
  username: string;
  nickName: string;
  role: SpaceRole;
  joinedAt: number;
}
export interface GroupMemberListResponse {
  members: SpaceMember[];
}

// ---- limits ----------------------------------------------------------------------------------

/** Most ids one batch call accepts (delete, move, copy, favorite, lock, zip...). */
export const BATCH_MAX_IDS = 1000;
export const TEXT_FILE_MAX_BYTES = 1024 * 1024;
/** A ZIP download holds at most this many files and folders... */
export const ZIP_MAX_ENTRIES = 10_000;
/** ...and at most this many bytes of content. */
export const ZIP_MAX_BYTES = 20 * 1024 * 1024 * 1024;
export const THUMBNAIL_SIZE = 256;
/** Keyword search: shortest keyword accepted. */
export const SEARCH_MIN_KEYWORD = 1;

// ---- desktop sync (issue 17; rules in common/sync/) ----------------------------------------------


export interface SynEntry {
  id: string;
  /** The folder holding it (the root's id for its direct children). */
  parentId: string;
  name: string;
  isDir: boolean;
  size: number;
  updatedAt: number;
  /** Fingerprint of the current content (common/transfer/protocol.ts); null for folders. */
  fingerprint: string | null;
  /** Locked by another user: the client must not change it. */
  lockedByOther: boolean;
}

export interface SynContentResponse {
  /** Opaque version of the root's live subtree (SHA-256 hex): send it back to learn whether anything changed. */
  token: string;
  /** Minutes between full sync passes: the admin's syncTime (POST /api/v2/defaultConfig/modify/syncTime). */
  syncTime: number;
  unchanged: boolean;
  /** Every live entry under the root (not the root), parents before children; [] when unchanged. */
  items: SynEntry[];
}

export interface SynCheckResponse {
  results: Array<{ key: string; verdict: 'ok' | 'intercepted' | 'sensitive' | 'secret'; reason: string | null }>;
}

export interface SynRemoveResponse {
  /** Ids moved to the recycle bin (already gone ones count as removed). */
  removed: string[];
  /** Ids left alone: their subtree changed since the client listed it. */
  changed: string[];
}

/** Most items one syn/check or syn/remove call takes. */
export const SYNC_BATCH_MAX = 1000;

// ---- action log (操作日志): codes in action-codes.ts, payloads in action-log.ts --------------------
export * from './action-codes';
export * from './action-log';

// ---- tenant, dictionaries, static data (tenant.ts, dictionaries.ts) ------------------------------
export * from './tenant';
export * from './org-types';

// ---- sharing, links, applications, exchange area (sharing.ts) ------------------------------------
export * from './sharing';
// ---- notices (issue 16): file messages, system notices, unread counts ------------------------------
// Which two counts make the system count (spec §3): `SystemUnreadCount` in notices.ts —
// tenantNotices (the tenant's notices addressed to the caller) + platformNotices (the platform's).
export * from './notices';
