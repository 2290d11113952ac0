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

// ---- login -------------------------------------------------------------------------------------

/**
 * Fields of the form-encoded `POST /spacex/login?ajax=true`. The password is AES-encrypted with
 * `encryptPassword` (common/crypto). `captchaId` + `captchaCode` answer `GET /api/captcha/generateBase64`;
 * the captcha is single-use, so a captured login request cannot be replayed.
 */
export interface LoginForm {
  username: string;
  password: string;
  captchaId: string;
  captchaCode: string;
}

export interface LoginResult {
  /** 0 = nothing to do; 1 = initial password must be changed; 2 = expired password (spec §2). */
  passwordChangeType: 0 | 1 | 2;
  homeUrl: string;
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
  role: 'admin' | 'member';
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
