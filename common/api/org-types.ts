/**
 * Organisation payloads (issue 14): departments, the admin's people management, the batch import and
 * the address list. The spec names the three orgUser calls without payloads; these shapes are ours.
 * Every id is checked against the caller's tenant: another tenant's ids answer 404 like unknown ones.
 */
import type { PhoneMaskRule } from '../org/phone-mask';
import type { AccountProfile } from './endpoints/user-admin';

// ---- departments ---------------------------------------------------------------------------------

/**
 * One department of the tenant's tree. The tree is answered whole (a tenant holds at most
 * DEPARTMENT_LIMIT departments, a few hundred kB at most): the client draws it virtualised and
 * searches it locally; people are paged (OrgUserPage).
 */
export interface DepartmentNode {
  id: string;
  /** null = top level. */
  parentId: string | null;
  name: string;
  /** Order among siblings (ascending; the answer is sorted by parent, then this, then id). */
  sortOrder: number;
  /** The department's manager (routes sharing approvals), or null. */
  managerId: string | null;
  managerName: string | null;
  /** People directly in this department (not its sub-departments). */
  memberCount: number;
  /**
   * The tenant's 未分配 department: every account not placed elsewhere (existing accounts were put
   * there when departments arrived). Top level, cannot be renamed, moved, deleted or given children.
   */
  unassigned: boolean;
}

export const DEPARTMENT_LIMIT = 10_000;
/** Name of the department every account without another one belongs to. */
export const UNASSIGNED_DEPARTMENT_NAME = '未分配';

/** `GET /api/user/orgUser/listNowOrgUser`: the caller's organisation (any signed-in user). */
export interface OrgTree {
  departments: DepartmentNode[];
  /** The caller's own department. */
  myDepartmentId: string;
  /** How the phones of others are masked in the address list (common/org/phone-mask.ts). */
  phoneMask: PhoneMaskRule;
}

// ---- address list (any signed-in user) -------------------------------------------------------------

/** A person as members see them: the phone already masked by the tenant's rule. */
export interface OrgUser {
  id: string;
  /** The login account. */
  website: string;
  nickName: string;
  departmentId: string;
  /** Masked (OrgTree.phoneMask) unless it is the caller's own. */
  phone: string;
  avatar: string;
  /** Groups only: the member's role in the group. */
  groupRole?: 'owner' | 'manager' | 'member';
  /** Locked by an admin or by failed logins: pickers and 通讯录 mark it 锁定. */
  locked?: boolean;
}

export interface OrgUserPage {
  items: OrgUser[];
  /** Opaque keyset cursor of the next page, or null at the end. */
  nextCursor: string | null;
}

export const ORG_PAGE_DEFAULT = 50;
export const ORG_PAGE_MAX = 200;

// ---- people management (admin) --------------------------------------------------------------------

/** Account states of the list's filter. `locked`: by an admin (= disabled) or by failed logins. */
export type UserState = 'active' | 'locked' | 'mustChange';

/** One row of 用户管理 (admin): everything the list and the edit form show. */
export interface UserRow extends AccountProfile {
  id: string;
  usedSize: number;
  /** Locked by an admin (disabled) or by failed logins. */
  locked: boolean;
  /** 'admin' | 'failures' while locked. */
  lockedReason: 'admin' | 'failures' | null;
  /** The initial password is not changed yet (passwordChangeType 1 at login). */
  mustChangePassword: boolean;
  createdAt: number;
}

export interface UserListResponse {
  items: UserRow[];
  nextCursor: string | null;
  /** How many people match the filter in all: on the first page (no cursor) only. */
  total?: number;
}

export interface HandOverFilesResponse {
  entries: number;
  bytes: number;
  /** The folder created in the recipient's spaces, or null when only group-space entries moved. */
  folderName: string | null;
}

// ---- batch import (admin) --------------------------------------------------------------------------

/**
 * Columns of the import template, in order; a sheet's first row must name them (extra columns are
 * ignored, order is free). 账号 and 昵称 are required in every row.
 */
export const IMPORT_COLUMNS = ['账号', '昵称', '手机号', '部门', '角色', '配额', '外网登录'] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];
export const IMPORT_REQUIRED_COLUMNS: readonly ImportColumn[] = ['账号', '昵称'];
/** Files above this are refused before parsing (IMPORT_FILE_TOO_LARGE). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
export type ImportFormat = 'xlsx' | 'csv';

/** One data row of an uploaded sheet and its verdict. */
export interface ImportRow {
  /** The row number in the sheet (the header is row 1). */
  row: number;
  website: string;
  nickName: string;
  phone: string;
  /** Department path, levels separated by `/` (e.g. 研发部/前端组); empty = 未分配. */
  department: string;
  role: string;
  quota: string;
  outerLogin: string;
  ok: boolean;
  /** Every reason the row is refused (empty when ok). */
  reasons: string[];
}

/**
 * `POST /api/v2/user/batch/preview?name=<file name>` with the file as the raw body
 * (application/octet-stream). Nothing is imported; the parsed rows are kept for
 * IMPORT_BATCH_TTL_MS under `batchId`.
 */
export interface ImportPreview {
  batchId: string;
  fileName: string;
  total: number;
  good: number;
  bad: number;
  rows: ImportRow[];
}

export const IMPORT_BATCH_TTL_MS = 60 * 60 * 1000;

export interface ImportResult {
  batchId: string;
  imported: number;
  skipped: number;
  /** Every row with its final verdict (the preview's reasons, or the one found at import). */
  rows: ImportRow[];
}
