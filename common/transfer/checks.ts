/**
 * Pre-upload checks (spec §4: "file states such as sensitive or locked are checked before upload")
 * and decisions on held items. Spec §7 names the calls; the payloads are ours.
 *
 * The engine calls multipleFile/check once for a batch of picked files. For each file the answer says
 * whether its type is blocked (→ the intercepted list, never uploaded), whether it is sensitive or the
 * target is locked (→ held, the user decides), and whether a file of that name exists (→ held: upload
 * as a new version, or under another name). The single-purpose calls answer the same questions for one
 * aspect each, for clients that ask them separately. The requests are declared with their calls in
 * common/api/endpoints/pre-upload.ts; the answers are here.
 */
import type { FileCategory } from '../api/types';

/** POST canBeUploadType */
export interface CanBeUploadTypeResponse {
  /** Names whose type may be uploaded. */
  allowed: string[];
  /** Names whose type the tenant blocks, with the blocked extension. */
  blocked: Array<{ name: string; extension: string }>;
  /** The tenant's blocked extensions, lower case without dot (so a client can check locally too). */
  blockedExtensions: string[];
}


/** POST checkFileSensitiveOrLock */
export interface SensitiveOrLockResult {
  key: string;
  /** The name matches the tenant's sensitive-content rules. */
  sensitive: boolean;
  /** A file of that name exists in the target and is locked by someone else: it cannot be replaced. */
  locked: boolean;
}

/** POST fileVersion/check */
export interface FileVersionCheckResponse {
  exists: boolean;
  /** The existing file, when exists. */
  fileId: string | null;
  /** A free name in that folder ('报告 (1).docx'), for the 'rename' choice. */
  suggestedName: string;
  /** Ours: the existing file is locked by someone else (no new version while it is). */
  locked: boolean;
  /**
   * Ours: the caller may give the existing file new content (the one modify decision: role, or a share
   * with 编辑) — false for a folder or a preview/download grant; true when nothing exists.
   */
  replaceable: boolean;
}

/** POST multipleFile/check: every check for a batch in one call. */
export interface MultipleFileCheckResult {
  key: string;
  blockedType: boolean;
  sensitive: boolean;
  locked: boolean;
  exists: boolean;
  existingFileId: string | null;
  /**
   * Ours: whether the caller may give the existing entry new content (a new version) — false for a
   * folder, or for another member's file in a space where the caller may change only their own
   * (common/files/space-roles.ts); true when nothing exists. Such a clash can only be renamed.
   */
  replaceable: boolean;
  suggestedName: string;
  /**
   * The file would exceed the user's remaining quota (with the other files of the batch before it).
   * Server: cumulative in request order over the items that may be uploaded — blocked types are
   * never uploaded, so they neither count nor are marked overQuota.
   */
  overQuota: boolean;
}
export interface MultipleFileCheckResponse {
  results: MultipleFileCheckResult[];
}

/** POST relativePath/dir/create: folders of a folder upload, created idempotently. */
export interface RelativePathDirCreateResponse {
  /** Folder id for each requested relative path (existing folders are reused). */
  dirs: Record<string, string>;
}

/**
 * Why an item is held for the user. Held items are also recorded by the server ("unprocessed" list)
 * so another device sees them: GET unProcess/list. Server: multipleFile/check records locked >
 * sensitive > exists (first that applies) and checkFileSensitiveOrLock records locked > sensitive,
 * keyed by (user, client key); checking a key again makes its entry undecided again. keepOnUpload
 * answers UploadDecision, giveUpUpload answers {key}; an unknown key is UPLOAD_NOT_FOUND; both need
 * the X-Client-Platform header ('web' | 'desktop') or answer PLATFORM_HEADER_REQUIRED.
 */
export type HoldReason = 'exists' | 'existsNotYours' | 'sensitive' | 'locked' | 'fileMissing' | 'unauthorized';

export interface UnprocessedUpload {
  key: string;
  name: string;
  parentId: string | null;
  category: FileCategory;
  reason: HoldReason;
  createdAt: number;
}

/** Extensions blocked by default (executables and scripts); a tenant setting overrides them. */
export const DEFAULT_BLOCKED_EXTENSIONS = ['exe', 'bat', 'cmd', 'com', 'scr', 'vbs', 'msi', 'ps1'] as const;
/** Name keywords that mark a file as sensitive by default (classified-document markings). */
export const DEFAULT_SENSITIVE_KEYWORDS = ['绝密', '机密', '秘密'] as const;
