import type { ActionOutcome, ActionTarget } from './action-codes';

/**
 * The action log (操作日志) as the API serves it (ours: the spec does not show these calls). Who may
 * read it: tenant administrators (the routes are adminOnly); members never. A tenant that separates
 * duties gives an auditor the admin role today; an `auditAdmin` role that reads only this log is
 * planned (README "Action log").
 */

/** Filters of the list and of the export. Every field is optional; all given ones must hold. */
export interface ActionLogFilter {
  /** Time range, ms since the epoch: from inclusive, to exclusive. */
  from?: number;
  to?: number;
  /** The operator: a user id of the tenant. */
  userId?: string;
  /** The operator's account as recorded (also failed logins under names no account has). */
  account?: string;
  /** Operators of this department and its sub-departments, as they were when they acted. */
  departmentId?: string;
  /** Action codes (common/api/action-codes.ts); any of them. */
  actions?: string[];
  /** Part of a target's name (file, folder, user, group…), case-insensitive. */
  fileName?: string;
  outcome?: ActionOutcome;
}

export const ACTION_LOG_DEFAULT_PAGE_SIZE = 50;
export const ACTION_LOG_MAX_PAGE_SIZE = 200;
/** At most this many action codes in one filter. */
export const ACTION_LOG_MAX_ACTIONS = 100;
/**
 * Filters no index orders (a file name, an account, several actions or departments, outcome ok
 * with another filter) are checked over at most this many rows per call; a page that found fewer
 * rows answers `scannedTo` and a cursor to go on from (the web app goes on by itself).
 */
export const ACTION_LOG_SCAN_WINDOW = 20_000;
/** An export stops after this many rows (and says so in its last row). */
export const ACTION_LOG_EXPORT_MAX_ROWS = 1_000_000;

export interface ActionLogActor {
  /** null: an account name no account has (a failed login), or the server itself. */
  id: string | null;
  account: string;
  /** Nick name when it acted. */
  name: string;
  /** RoleCode, '' for an unknown account, 'system' for the server. */
  role: string;
  departmentId: string | null;
}

export interface ActionLogEntry {
  /** Position in the tenant's chain (1, 2, 3… without gaps). */
  seq: number;
  at: number;
  actor: ActionLogActor;
  /** An ActionCode (labels: ACTIONS in common/api/action-codes.ts). */
  action: string;
  /** What it was done to, with the names at that time. */
  targets: ActionTarget[];
  detail: Record<string, unknown> | null;
  outcome: ActionOutcome;
  /** The error code the caller got when refused. */
  errorCode: string | null;
  /** The client's address (behind a trusted proxy: the forwarded one). */
  address: string;
  /** 3 internal build, 4 public build (spec §9); null when the client did not say. */
  clientType: 3 | 4 | null;
  /** 'internal' | 'public' as the server judged it, or ''. */
  networkEnv: string;
  /** 'web' | 'desktop' (X-Client-Platform), 'server' for the server's own entries. */
  platform: string;
  userAgent: string;
  /** This row's hash in the chain (HMAC-SHA-256, hex). */
  hash: string;
}

export interface ActionLogListResponse {
  items: ActionLogEntry[];
  /** null: nothing further matches. */
  nextCursor: string | null;
  /**
   * Set when the call checked its whole scan window without filling the page: the rows down to this
   * time have been looked at; the next cursor goes on from there.
   */
  scannedTo: number | null;
  /** The tenant's chain head now (seq and hash): write it down to anchor the log outside the server. */
  head: { seq: number; hash: string };
}

/** `GET /api/actionLog/export?format=…` with the filter as query parameters (ActionLogExportQuery in endpoints/action-log.ts). */
export type ActionLogExportFormat = 'xlsx' | 'csv';

/** Column headers of the export (Chinese, in this order). */
export const ACTION_LOG_EXPORT_COLUMNS = [
  '时间',
  '操作人账号',
  '操作人姓名',
  '角色',
  '部门',
  '操作',
  '操作代码',
  '对象',
  '对象ID',
  '结果',
  '错误码',
  '详情',
  'IP地址',
  '客户端类型',
  '网络环境',
  '平台',
  'User-Agent',
  '序号',
  '哈希',
] as const;

/**
 * A signed checkpoint of one tenant's chain head (issue 35), like Certificate Transparency's signed
 * tree head: "row `seq` of this tenant's log had hash `hash` at time `at`", signed by the server's
 * Ed25519 key. Kept off the server (downloaded from 操作日志, written to AUDIT_CHECKPOINT_DIR, the
 * server log), it lets `npm run audit:verify -- --checkpoint FILE` find rows cut off after it: the
 * chain must still reach row `seq` with that hash (or have pruned it by retention).
 *
 * `GET /api/actionLog/checkpoint[?tenantId=]` (admins; platform admins may name a tenant as in the
 * list) answers one, signed at the request, as a JSON attachment; recorded as audit.checkpoint.
 * A head whose MAC does not hold is never signed: AUDIT_HEAD_INVALID.
 *
 * Signed message: the UTF-8 of JSON.stringify(["drive-audit-checkpoint/v1", tenantId, seq, hash, at]).
 * Files may hold one checkpoint, a JSON array of them, or one per line (the directory's files).
 */
export interface ActionLogCheckpoint {
  format: 'drive-audit-checkpoint';
  version: 1;
  /** '' is the platform's own chain. */
  tenantId: string;
  /** The head: the chain's last row and its hash (seq 0 and 64 zeros for an empty chain). */
  seq: number;
  hash: string;
  /** When it was signed, ms since the epoch; `time` is the same as ISO 8601 UTC, for people. */
  at: number;
  time: string;
  /** The first 16 bytes (hex) of SHA-256 over the public key's SPKI DER. */
  keyId: string;
  /** The signing key's public half, SPKI DER in base64 (also DATA_DIR/audit-checkpoint.pub). */
  publicKey: string;
  /** Ed25519 signature of the signed message, base64. */
  signature: string;
}
