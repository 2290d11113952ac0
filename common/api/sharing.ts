/**
 * Sharing (issue 15): internal shares, share links, sharing applications and their approval, the
 * tenant's sharing policy, and the exchange area. Paths are in paths.ts (documented there once), error
 * codes SHR-80xx / LNK-81xx / APL-82xx / EXC-83xx in errors.ts, action codes share.* link.* apply.*
 * exchange.* in action-codes.ts.
 *
 * The rules, written once for both sides:
 * - A share gives a recipient (a person, a department with all its sub-departments, or the members of
 *   a group space) one permission on a file or folder tree: preview < download < edit. The server
 *   checks it on EVERY call that touches the entry or anything below it (list, preview, thumbnail,
 *   download, zip, versions, copy out, rename, new version); nothing is cached, so a change, a
 *   revocation or an expiry holds from the next call on. Several shares reaching one person add up
 *   to the highest permission among those still in force.
 * - preview: list and preview only. Download, zip, version download and copying out refuse with
 *   SHARE_PREVIEW_ONLY; pictures are previewed with the viewer's account and the time burnt into
 *   the pixels by the server, PDF and text with the same watermark drawn over them by the client.
 *   What each grant (share or link) allows with the bytes is ONE decision: byte-access.ts.
 * - edit: also rename entries inside the shared tree (not the shared root itself) and give files new
 *   content (upload a new version, restore an old one). Creating, moving or deleting entries stays
 *   the owner's: an entry of a personal tree always belongs to that tree's owner.
 * - Only what the caller may change can be shared: their own personal entries, entries of a space
 *   they may modify (space-roles.ts). A space's root folder is shared by sharing its entries.
 * - Links: a token of 192 random bits (never an id) in the address, an optional extraction code of
 *   LINK_CODE_LENGTH characters (mandatory while the tenant's keyCreate switch is on), an expiry, a
 *   download limit and preview-only. Wrong codes are counted per token and per address: after
 *   LINK_SLOW_AFTER failures every attempt waits (doubling), after LINK_LOCK_AFTER the token is
 *   locked for LINK_LOCK_MS; an unknown token and a wrong code answer exactly alike. Whoever holds
 *   the link opens it, signed in or not. The tenant's publicDownLoad switch off makes a link to the
 *   public space preview-only (PUBLIC_DOWNLOAD_OFF for downloads and saves), like the space itself.
 * - Updates of shares and links never widen what an approval granted, nor what the policy in force
 *   would refuse to a create: share-terms.ts.
 */
import type { ApprovedLinkTerms, ApprovedShareTerms } from './share-terms';
import type { LinkSettings } from './endpoints/links';
import type { ShareCreateRequest } from './endpoints/shares';
import type { FileEntry, FileKind, UserRef } from './types';

// ---- permissions and recipients -----------------------------------------------------------------

export type SharePermission = 'preview' | 'download' | 'edit';
export const SHARE_PERMISSIONS: readonly SharePermission[] = ['preview', 'download', 'edit'];
export const SHARE_PERMISSION_LABELS: Record<SharePermission, string> = { preview: '预览', download: '下载', edit: '编辑' };
export const SHARE_PERMISSION_RANK: Record<SharePermission, number> = { preview: 1, download: 2, edit: 3 };

/** The higher of two permissions. */
export function strongerPermission(a: SharePermission, b: SharePermission): SharePermission {
  return SHARE_PERMISSION_RANK[a] >= SHARE_PERMISSION_RANK[b] ? a : b;
}

export type ShareRecipientType = 'user' | 'dept' | 'group';
export const SHARE_RECIPIENT_LABELS: Record<ShareRecipientType, string> = { user: '人员', dept: '部门', group: '群组' };

export interface ShareRecipient {
  type: ShareRecipientType;
  id: string;
}

export interface ShareRecipientInfo extends ShareRecipient {
  /** Nickname (account) of a person, the department's path, or the group's name. */
  name: string;
}

/** At most this many recipients and entries in one share request. */
export const SHARE_MAX_RECIPIENTS = 200;
export const SHARE_MAX_FILES = 100;

/**
 * How long a share or link lasts, in days: the values of the static data list `validity`
 * (dictionaries.ts); 0 = until revoked. The server accepts 0..SHARE_MAX_VALIDITY_DAYS.
 */
export const SHARE_MAX_VALIDITY_DAYS = 3650;

/** What an entry reached through a share carries (FileEntry.share). */
export interface ShareGrantInfo {
  permission: SharePermission;
  sharedBy: UserRef;
  /** When the strongest share in force ends; null = until revoked. */
  expiresAt: number | null;
  sharedAt: number;
  /** The shared entry this one is (or lies under): the top of what the recipient may see. */
  rootId: string;
}

// ---- internal shares ------------------------------------------------------------------------------


export interface ShareCreateResponse {
  shares: ShareInfo[];
}



export type ShareState = 'active' | 'expired' | 'revoked';
export const SHARE_STATE_LABELS: Record<ShareState, string> = { active: '生效中', expired: '已过期', revoked: '已取消' };

/** The entry a share or link is of, as 我的分享 shows it. */
export interface SharedEntryRef {
  id: string;
  name: string;
  isDir: boolean;
  kind: FileKind;
  /** The entry is in the recycle bin or gone: the share gives nothing until it is back. */
  deleted: boolean;
}

export interface ShareInfo {
  id: string;
  file: SharedEntryRef;
  recipient: ShareRecipientInfo;
  permission: SharePermission;
  expiresAt: number | null;
  createdAt: number;
  updatedAt: number;
  state: ShareState;
  /** The application that created it, when it needed approval. */
  applicationId: string | null;
  /** What that approval granted: the share's ceiling (null: made without approval). */
  approvedTerms: ApprovedShareTerms | null;
}

export interface MySharesResponse {
  items: ShareInfo[];
  nextCursor: string | null;
}

// ---- 共享文件: what others shared with me --------------------------------------------------------


export interface SharerSummary {
  user: UserRef;
  /** Entries this person shares with the caller (in force, live). */
  count: number;
}

export interface SharedListResponse {
  items: FileEntry[];
  nextCursor: string | null;
  /** First page of the root only. */
  sharers?: SharerSummary[];
  /** Inside a shared folder: the caller's grant there. */
  grant?: ShareGrantInfo | null;
}

// ---- links ------------------------------------------------------------------------------------------

export const LINK_CODE_LENGTH = 4;
/** Letters and digits; compared case-insensitively. Generated codes avoid 0/O/1/I/L. */
export const LINK_CODE_PATTERN = /^[A-Za-z0-9]{4}$/;
export const LINK_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const LINK_MAX_DOWNLOAD_LIMIT = 100000;
/** Wrong codes per token (or per address × LINK_ADDRESS_FACTOR) before each attempt must wait. */
export const LINK_SLOW_AFTER = 5;
export const LINK_ADDRESS_FACTOR = 4;
/** Wrong codes of one token within the window that lock it for LINK_LOCK_MS. */
export const LINK_LOCK_AFTER = 10;
export const LINK_LOCK_MS = 15 * 60 * 1000;
/** How long an opened link stays open in one page without entering the code again. */
export const LINK_VISIT_TTL_MS = 2 * 3600 * 1000;

/** The link's page: `/shareLink/<token>` (and `/downLoadM/<token>` on phones, `/openShareLink/<token>` in the app). */
export function shareLinkPath(token: string, page: 'shareLink' | 'downLoadM' | 'openShareLink' = 'shareLink'): string {
  return `/${page}/${encodeURIComponent(token)}`;
}

/** The pages an outsider lands on from a link, served by the link pages' own lean entry (link.html). */
export type LinkEntryPage = { page: 'shareLink' | 'downLoadM'; token: string } | { page: 'downloadExceeded' };

/**
 * Which outsider's page a path is (`/shareLink/<token>`, `/downLoadM/<token>`, `/downloadExceeded`),
 * or null: the server sends link.html for exactly these, and the link pages' router shows exactly these
 * (anything else loads the app).
 */
export function linkEntryOf(pathname: string): LinkEntryPage | null {
  if (/^\/downloadExceeded\/?$/.test(pathname)) return { page: 'downloadExceeded' };
  const m = /^\/(shareLink|downLoadM)\/([^/]+)\/?$/.exec(pathname);
  if (!m) return null;
  let token: string;
  try {
    token = decodeURIComponent(m[2]!);
  } catch {
    return null;
  }
  return token ? { page: m[1] as 'shareLink' | 'downLoadM', token } : null;
}




export interface LinkInfo {
  id: string;
  file: SharedEntryRef;
  /** The token (the sharer may copy the link again at any time); the address is shareLinkPath(token). */
  token: string;
  code: string | null;
  expiresAt: number | null;
  downloadLimit: number | null;
  previewOnly: boolean;
  views: number;
  downloads: number;
  createdAt: number;
  updatedAt: number;
  state: ShareState | 'exhausted';
  applicationId: string | null;
  /** What the approval that made it granted: the link's ceiling (null: made without approval). */
  approvedTerms: ApprovedLinkTerms | null;
}

export interface MyLinksResponse {
  items: LinkInfo[];
  nextCursor: string | null;
}

// ---- the visitor's side (public: whoever holds the link) ---------------------------------------------


/**
 * What a link's page shows before the code (issue 44; `LINKS.summary`): enough for the visitor to know
 * who sent what, as Baidu Netdisk and Seafile show on their code pages, and nothing of the contents:
 * the sharer's display name (no id, account, phone or department), the shared entry's own name, its
 * kind and, for a file only, its size (a folder's size or count would tell what it holds; its list
 * waits for the code), the expiry and whether the link is preview-only. Not how often it was opened or
 * downloaded. An unknown token and a revoked or expired link answer alike (LINK_GONE); a tenant that
 * wants a session answers 401 to anyone else, as the link's other calls do.
 */
export interface LinkSummary {
  /** The code is asked before the link opens (else the page opens it at once). */
  needCode: boolean;
  sharedBy: { nickName: string };
  name: string;
  isDir: boolean;
  kind: FileKind;
  /** Bytes of a shared file; null for a folder. */
  size: number | null;
  expiresAt: number | null;
  previewOnly: boolean;
}

export type LinkOpenResponse = { needCode: true } | ({ needCode: false } & LinkVisit);

export interface LinkVisit {
  /** Bearer key of this visit (LINK_VISIT_TTL_MS): every further call names it. */
  visit: string;
  root: LinkEntry;
  sharedBy: UserRef;
  expiresAt: number | null;
  previewOnly: boolean;
  /** null = unlimited. */
  downloadsLeft: number | null;
  /** The visitor is signed in to the link's tenant (may save to 个人文件). */
  signedIn: boolean;
  /** The preview watermark for preview-only links: who looks and when. */
  watermark: string | null;
}

/** An entry inside a link (no ids of the sharer's tree above the link's root are ever shown). */
export type LinkEntry = Pick<FileEntry, 'id' | 'parentId' | 'name' | 'isDir' | 'size' | 'kind' | 'updatedAt'>;

export interface LinkListResponse {
  items: LinkEntry[];
  nextCursor: string | null;
  /** From the link's root down to this folder. */
  path: Array<{ id: string; name: string }>;
}

/**
 * `POST /api/v2/shareLink/download {visit, ids}` (LinkDownloadRequest: endpoints/links.ts): one file, or a ZIP of several entries / a folder.
 * Counts one download (refused with DEP10213, HTTP 500, once the limit is reached; the client goes to
 * /downloadExceeded) and answers the address of the bytes: `GET /api/v2/shareLink/file/<ticket>`, an
 * attachment, good for LINK_TICKET_TTL_MS. The ticket gives ONE COPY (issue 35):
 *
 * - A file ticket hands out at most the file's size in bytes over all its requests, however they
 *   are ranged. Each response takes its bytes from the ticket before its first byte, atomically (two
 *   requests at once cannot both take the same bytes; a download manager's parallel segments that
 *   add up to the file all pass); a response that breaks off gives back what it did not send.
 * - Ranges: one range `bytes=a-b`, `a-` or `-n` is answered 206 when the ticket has that many bytes
 *   left. Anything the server does not honour exactly — an invalid range (`bytes=5-1`), several
 *   ranges, another unit, or an `If-Range` that is not the file's ETag — asks for the whole file (RFC
 *   9110): it gets 200 and the whole file only while the ticket still has the whole copy left. A
 *   request the ticket cannot serve answers 416 LINK_TICKET_SPENT (`Content-Range: bytes *` and the
 *   size) when it carried a Range, 404 LINK_TICKET_INVALID when not; never a body. A range past the
 *   end is 416 RANGE_NOT_SATISFIABLE and takes nothing.
 * - Resume: a browser resumes with `Range: bytes=N-` and the `If-Range` it was given. Bytes a broken
 *   response handed to the network may never have arrived, so a resume starting inside the span the
 *   last broken response sent gets that span's bytes from N on back, at most ticketResumeAllowance()
 *   re-sent bytes over the ticket's life. A resume that continues a response still being sent (its
 *   connection hangs after a network change) stops that response first and continues in its place.
 *   So a plain client never gets more than one copy, and a client crafted to break connections and
 *   lie about where it stopped at most one copy plus the allowance (≤ 1¼ copies, ≤ 16 MiB more).
 * - HEAD takes nothing: it answers the headers a GET would get now (200/206 with Content-Length, or
 *   the refusal's status).
 * - A ZIP ticket is not ranged (`Accept-Ranges: none`, no ETag): the archive is streamed, deflated
 *   and built from the tree as it is at that moment, so neither its length nor its bytes are known to
 *   be the same on a second request. Its first GET, with or without Range, gets the whole archive and
 *   uses the ticket; after that every GET is refused (416 LINK_TICKET_SPENT with a Range, 404
 *   without), also when the first response broke off (download again: it counts again). HEAD takes
 *   nothing.
 * - A ticket never gives more than the link allows when it is used: revocation, expiry and the
 *   tenant's switches are checked on every request.
 */
export interface LinkDownloadResponse {
  url: string;
  downloadsLeft: number | null;
}
export const LINK_TICKET_TTL_MS = 6 * 3600 * 1000;
/** The most a ticket re-sends to resumes over its life (see ticketResumeAllowance). */
export const LINK_TICKET_RESUME_MAX = 16 * 1024 * 1024;

/**
 * Bytes a file ticket of `size` bytes may re-send to resumes from inside broken responses: enough for
 * what a cut connection typically had in flight (a few MiB of socket buffers), never more than a
 * quarter of the copy nor LINK_TICKET_RESUME_MAX.
 */
export function ticketResumeAllowance(size: number): number {
  return Math.min(LINK_TICKET_RESUME_MAX, Math.floor(size / 4));
}

export interface LinkSaveResponse {
  saved: number;
}

// ---- approval: policy and applications ------------------------------------------------------------

/** Who approves one level. `manager`: the manager of the applicant's department (the nearest one above when it has none, or when it is the applicant). */
export type ApproverRule = { kind: 'manager' } | { kind: 'user'; userId: string } | { kind: 'role'; role: 'admin' };

/**
 * The tenant's sharing policy (`/main/system/fileSecurity`). A share or link needs approval when ANY
 * rule matches; who approves is `approver` (the applicant picks one of its candidates), then
 * `secondApprover` when set (the first approver picks one of its candidates).
 */
export interface SharePolicy {
  link: {
    /** Every link needs approval. */
    always: boolean;
    /** Links of an entry whose name (or, for a folder, any name inside) has a sensitive keyword. */
    sensitive: boolean;
    /** Links of entries inside (or being) these folders. */
    folderIds: string[];
    /** Links made by people of these departments (with their sub-departments). */
    departmentIds: string[];
  };
  internal: {
    /** Internal shares reaching anyone outside the sharer's own department (and its sub-departments). */
    otherDepartment: boolean;
  };
  approver: ApproverRule;
  secondApprover: ApproverRule | null;
  /** A pending application older than this many days becomes 已过期. */
  applicationTtlDays: number;
}

export const DEFAULT_SHARE_POLICY: SharePolicy = {
  link: { always: false, sensitive: true, folderIds: [], departmentIds: [] },
  internal: { otherDepartment: false },
  approver: { kind: 'manager' },
  secondApprover: null,
  applicationTtlDays: 7,
};

/** `GET /api/v2/fileSecurity/get` (admins; also readable by everyone as `policy` of the check). */
export interface FileSecuritySettings {
  sharePolicy: SharePolicy;
  exchangeRules: ExchangeRules;
  /** The tenant's sensitive name keywords (uploads, the link policy and the exchange check use them). */
  sensitiveKeywords: string[];
  /** Names of the folders and departments the policy names, for the page. */
  names: Record<string, string>;
  /**
   * The keywords also match the text inside files (search inside files): the background re-scan after
   * the last keyword change; null before any change.
   */
  contentScan: ContentScanProgress | null;
}

/** Progress of the re-scan of a tenant's extracted texts against its sensitive keywords. */
export interface ContentScanProgress {
  state: 'running' | 'done';
  /** Texts checked so far, of `total` (the texts stored when the job started; more may arrive). */
  done: number;
  total: number;
  /** Texts (one per distinct content) holding one of the keywords now. */
  hits: number;
  startedAt: number;
  finishedAt: number | null;
}

export const SENSITIVE_KEYWORDS_MAX = 200;
export const APPLICATION_TTL_MAX_DAYS = 90;

export type ShareKind = 'share' | 'link';
export const SHARE_KIND_LABELS: Record<ShareKind, string> = { share: '内部共享', link: '外链分享' };

export interface ApprovalCheckResponse {
  required: boolean;
  /** Why (Chinese, one line each), empty when not required. */
  reasons: string[];
  /** Whom the applicant may choose as first approver. */
  approvers: UserRef[];
  /** A second level follows. */
  twoLevels: boolean;
}

export type ApplicationState = 'pending' | 'approved' | 'rejected' | 'withdrawn' | 'expired';
export const APPLICATION_STATE_LABELS: Record<ApplicationState, string> = {
  pending: '待审批',
  approved: '已通过',
  rejected: '已驳回',
  withdrawn: '已撤回',
  expired: '已过期',
};

export const APPLICATION_REASON_MAX = 500;
export const APPLICATION_COMMENT_MAX = 500;

export type ApplicationStepKind = 'submit' | 'approve' | 'reject' | 'withdraw' | 'expire' | 'created';
export interface ApplicationStep {
  kind: ApplicationStepKind;
  level: number;
  actor: UserRef | null;
  at: number;
  comment: string;
}

export interface ShareApplication {
  id: string;
  kind: ShareKind;
  applicant: UserRef & { account: string };
  files: SharedEntryRef[];
  share: (Omit<ShareCreateRequest, 'fileIds'> & { recipientNames: ShareRecipientInfo[] }) | null;
  link: LinkSettings | null;
  /** The link it changes (ApplicationSubmitRequest.linkId), null when it makes a new one. */
  linkId: string | null;
  reason: string;
  state: ApplicationState;
  /** 1 or 2: the level waiting (or the last one decided). */
  level: number;
  levels: number;
  /** Who must decide now (pending), or who decided last. */
  approver: UserRef | null;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  /** The rejection's reason, or the last approver's comment. */
  comment: string;
  history: ApplicationStep[];
  /** What approval created. */
  shareIds: string[];
  linkIds: string[];
}

export interface ApplicationListResponse {
  items: ShareApplication[];
  nextCursor: string | null;
}

export interface ApplicationDecisionResult {
  id: string;
  ok: boolean;
  errorCode?: string;
  errorMessage?: string;
  application?: ShareApplication;
}
export interface ApplicationDecisionResponse {
  results: ApplicationDecisionResult[];
}
/** `POST /api/v2/shareApply/get {id}`: the applicant or an approver of it. */

// ---- exchange area ---------------------------------------------------------------------------------

/** The tenant's exchange rules (what checkSwap and fileSafe/check apply). */
export interface ExchangeRules {
  /** Lower-case extensions without dot; empty = every type the tenant does not block. */
  allowedExtensions: string[];
  /** Check names (and text content up to EXCHANGE_TEXT_SCAN_BYTES) for the tenant's sensitive keywords. */
  keywordCheck: boolean;
  /** Bytes; 0 = no cap. */
  maxFileSize: number;
}
export const DEFAULT_EXCHANGE_RULES: ExchangeRules = { allowedExtensions: [], keywordCheck: true, maxFileSize: 2 * 1024 * 1024 * 1024 };
export const EXCHANGE_TEXT_SCAN_BYTES = 1024 * 1024;

export type NetworkSide = 'internal' | 'public';
export const NETWORK_SIDE_LABELS: Record<NetworkSide, string> = { internal: '内网', public: '外网' };
export type SwapState = 'pending' | 'passed' | 'intercepted';
export const SWAP_STATE_LABELS: Record<SwapState, string> = { pending: '待检查', passed: '已通过', intercepted: '已拦截' };

/** FileEntry.exchange: an exchange-area file (category 3) and where it is in the crossing. */
export interface ExchangeInfo {
  /** The network build it was put in from. */
  side: NetworkSide;
  state: SwapState;
  reason: string | null;
  checkedAt: number | null;
}

export interface SwapCheckResult {
  id: string;
  name: string;
  passed: boolean;
  /** Why not (Chinese), null when passed. */
  reason: string | null;
}
export interface SwapCheckResponse {
  results: SwapCheckResult[];
}

/** `GET unProcess/list?scope=exchange`: the caller's intercepted files not dealt with yet. */
export interface InterceptedFile {
  id: string;
  name: string;
  side: NetworkSide;
  reason: string;
  checkedAt: number;
  /** Set once dealt with (processed/list). */
  processedAt: number | null;
  processing: InterceptDecision | null;
}
export type InterceptDecision = 'dismiss' | 'delete';

/** `POST /api/v2/file/processed/list` (request: endpoints/exchange.ts). */
export interface ProcessedListResponse {
  items: InterceptedFile[];
  nextCursor: string | null;
}

/** `GET keepOnDownload?id=`: the user confirms downloading a flagged file; answers the download address. */
export interface KeepOnDownloadResponse {
  url: string;
}
export const DOWNLOAD_CONFIRM_TTL_MS = 10 * 60 * 1000;

// ---- online editing --------------------------------------------------------------------------------

/** Types an online editor would open (the editor itself is a later integration). */
export const ONLINE_EDIT_EXTENSIONS: readonly string[] = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'csv', 'txt'];

/** `GET /api/v2/onlyoffice/canoperationforshare?id=` */
export interface CanOperationResponse {
  /** Permission 编辑 (or the caller's own / a space entry they may modify) and a supported type. */
  canEdit: boolean;
  /** Why not (Chinese), null when canEdit. */
  reason: string | null;
  /** Whether an editor is configured on this server (none yet). */
  editorAvailable: boolean;
}
