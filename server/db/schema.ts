/**
 * Kysely table types. Times are milliseconds since the epoch (INTEGER); booleans are 0/1 so the same
 * schema works on SQLite and PostgreSQL.
 */
import type { Generated } from 'kysely';

export interface TenantsTable {
  id: string;
  name: string;
  brand_name: string;
  /** BlobStore key of the logo image (SVG), or null. */
  logo_key: string | null;
  created_at: number;
  /** Migration 0012: alias (alias_key its lower case, unique), the logo's type ('webp'; null = the generated SVG). */
  alias?: string | null;
  alias_key?: string | null;
  logo_type?: string | null;
  /** BlobStore key and type of the login background, or null. */
  background_key?: string | null;
  background_type?: string | null;
  updated_at?: number | null;
  /** Migration 0092: the tenant's home page (a path of common/api/tenant.ts HOME_PAGES); null = the default. */
  home_url?: string | null;
}

export interface UsersTable {
  id: string;
  tenant_id: string;
  username: string;
  nick_name: string;
  phone: string;
  /** Path of the avatar image relative to the base URL, or ''. */
  avatar: string;
  role: 'admin' | 'member';
  /** `scrypt$N$r$p$salt$hash`, see services/password-hash.ts. */
  password_hash: string;
  /** 1 = initial password that must be changed before anything else. */
  must_change_password: number;
  password_changed_at: number | null;
  quota: number;
  used_size: number;
  created_at: number;
  /** 1 = may not log in (sessions ended at lock time). */
  locked?: number;
  /** 'admin' | 'failures' (see LoginForm in common/api/endpoints/auth.ts), null when unlocked. */
  locked_reason?: string | null;
  /** 1 = may log in through the public-network build. */
  outer_login?: number;
  agreement_read_at?: number | null;
  /** 1 = platform admin: sees every tenant (migration 0012, common/api/tenant.ts). */
  platform_admin?: number;
  /** The user's department (issue 14); every live account has one (未分配 when not placed). */
  department_id?: string | null;
  /** Lower-cased account: unique per tenant among live accounts. */
  username_key?: string;
  /** Set when an admin deleted the account (soft: what it did stays attributed to it). */
  deleted_at?: number | null;
  /** The last day (common/api/reports.ts statsDayOf) the person did anything (migration 0087). */
  active_day?: number | null;
}

export interface DepartmentsTable {
  id: string;
  tenant_id: string;
  parent_id: string | null;
  name: string;
  /** NFC lower case of the name: unique among siblings. */
  name_key: string;
  sort_order: number;
  manager_id: string | null;
  /** 'unassigned': the tenant's 未分配, one per tenant. */
  kind: 'normal' | 'unassigned';
  created_at: number;
  updated_at: number;
}

export interface UserImportBatchesTable {
  id: string;
  tenant_id: string;
  created_by: string;
  file_name: string;
  /** JSON ImportRow[]. */
  rows: string;
  status: 'preview' | 'imported';
  created_at: number;
  expires_at: number;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie token; the token itself is never stored. */
  id: string;
  user_id: string;
  tenant_id: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  /** The X-Network-Env the session logged in with ('internal' | 'public'). */
  network_env?: string;
  /** Set when the server ended the session ('locked', 'outerLogin'); its next call answers 400sec-core-301. */
  ended_reason?: string | null;
  /** What the device list (账号安全) names the session by (migration 0091); the id never leaves the server. */
  public_id?: string | null;
  /** The browser's User-Agent at sign-in (cut to USER_AGENT_MAX), shown as device and browser. */
  user_agent?: string | null;
  /** The client address last seen (at sign-in, then whenever the expiry moves forward). */
  address?: string | null;
  /** Wrong 手势密码 in a row on this session (migration 0090); the 5th ends it. */
  gesture_failures?: number;
  /** 1 while the client's 手势密码 lock is up (migration 0094): the guard refuses all but the lock screen's calls. */
  gesture_locked?: number;
}

/** A 设备密码 for WebDAV clients (migration 0095; services/device-password-service.ts). */
export interface DevicePasswordsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  /** The password's first 8 characters: finds the row (not secret on its own). */
  public_id: string;
  /** What the user named it (the device or program), shown in 设备密码. */
  name: string;
  /** SHA-256 (hex) of the whole password: high-entropy and ours, so a fast hash is enough. */
  secret_hash: string;
  created_at: number;
  /** Written at most once a minute per password (coalesced), null until first used. */
  last_used_at: number | null;
  last_used_address: string | null;
  /** Set when revoked: refused from then on, and no longer listed. */
  revoked_at: number | null;
}

/** A user's 手势密码 as a salted scrypt hash (migration 0090); no row = none set. */
export interface GesturePatternsTable {
  user_id: string;
  tenant_id: string;
  hash: string;
  updated_at: number;
}

export interface LoginFailuresTable {
  /** `acct:<lower-cased account name>` or `addr:<client address>`. */
  key: string;
  failures: number;
  first_failure_at: number;
  last_failure_at: number;
  /** 1 = an account name locked by failures (kept even for names that do not exist). */
  locked: number;
}

export interface SmsCodesTable {
  id: string;
  phone: string;
  purpose: string;
  user_id: string | null;
  address: string;
  /** HMAC-SHA-256 of the code, keyed per row (services/sms-code-service.ts). */
  code_hash: string;
  attempts: number;
  used: number;
  created_at: number;
  expires_at: number;
}

export interface CaptchasTable {
  id: string;
  answer_hash: string;
  expires_at: number;
  used: number;
}

export interface FilesTable {
  id: string;
  tenant_id: string;
  owner_id: string;
  parent_id: string | null;
  category: number;
  name: string;
  /** Lower-cased name: the unique index on it makes names case-insensitively unique per folder. */
  name_key: string;
  /** Byte-comparable key of the name in pinyin / natural order (common/files/name-sort-key.ts): the name listings' order. */
  sort_key: string;
  is_dir: number;
  size: number;
  blob_id: string | null;
  created_at: number;
  updated_at: number;
  /** User holding the lock on this entry (nobody else may change it), or null. */
  locked_by?: string | null;
  /** Group or public space holding the entry; null = the owner's personal categories. */
  space_id?: string | null;
  /** §3 encrypted variant (0/1). */
  encrypted?: number;
  /** Set on a deleted entry and its whole tree (recycle bin); null = live. */
  deleted_at?: number | null;
  deleted_by?: string | null;
  /** The entry the user deleted (its own id for that entry; the same for its whole tree). */
  trash_root_id?: string | null;
  /** Deleted roots only: JSON array of the ancestor folder names at deletion (restore recreates them). */
  trash_path?: string | null;
}

export interface SpacesTable {
  id: string;
  tenant_id: string;
  kind: 'group' | 'public';
  name: string;
  name_key: string;
  /** The space's root folder (files.id). */
  root_id: string;
  created_by: string;
  created_at: number;
}

export interface SpaceMembersTable {
  space_id: string;
  user_id: string;
  role: 'owner' | 'manager' | 'member';
  joined_at: number;
}

export interface FavoritesTable {
  user_id: string;
  file_id: string;
  created_at: number;
}

/** A createTxt whose name was taken: kept until keepOnCreateTxt decides or it expires. */
export interface TextHoldsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  parent_id: string | null;
  category: number;
  space_id: string | null;
  name: string;
  content: string;
  created_at: number;
  expires_at: number;
}

/** Blobs whose fingerprint predates the tree chunk digest (migration 0042). */
export interface StaleFingerprintsTable {
  blob_id: string;
}

export interface BlobsTable {
  id: string;
  tenant_id: string;
  /** Hex SHA-256 over the chunk digests (common/transfer/protocol.ts). */
  fingerprint: string;
  size: number;
  storage_key: string;
  created_at: number;
  /** Chunked layout (the blob is its ordered chunk files); null = stored as one piece. */
  chunk_size?: number | null;
  chunk_count?: number | null;
  /**
   * The chunk size `fingerprint` was computed with (migration 0084; services/fingerprint-upgrade.ts
   * fingerprints a blob again when the configured size changes). 0: given up — the same content was
   * stored again meanwhile as another blob, which holds the fingerprint (the index is unique per
   * tenant); this one is never offered for a second upload. NULL only between 0084 and the next start.
   */
  fingerprint_chunk_size: number | null;
}

export interface UploadsTable {
  id: string;
  tenant_id: string;
  user_id: string;
  fingerprint: string;
  size: number;
  chunk_size: number;
  chunk_count: number;
  /** JSON array of hex SHA-256 digests, one per chunk. */
  chunk_digests: string;
  name: string;
  parent_id: string | null;
  category: number;
  created_at: number;
  updated_at: number;
  expires_at: number;
  /**
   * Set (durably) just before merge moves the chunk directory to blobs/<id>: recovery moves a blob
   * directory back to the upload when the merge did not commit.
   */
  merge_blob_id?: string | null;
}

/** An upload that created its file, by the client's key for the item (migration 0040). */
export interface FinishedUploadsTable {
  user_id: string;
  client_key: string;
  file_id: string;
  finished_at: number;
}

/** A one-piece blob being written by a small-file batch (migration 0041). */
export interface BlobIntentsTable {
  storage_key: string;
  created_at: number;
}

export interface UploadChunksTable {
  upload_id: string;
  idx: number;
  size: number;
  sha256: string;
}

export interface FileVersionsTable {
  id: string;
  file_id: string;
  tenant_id: string;
  /** The content this version had. */
  blob_id: string;
  size: number;
  /** 1 for the oldest kept version; the file row itself is the current content. */
  version_no: number;
  created_at: number;
  created_by: string;
}

export interface TenantSettingsTable {
  tenant_id: string;
  /** JSON array of lower-case extensions without dot; null = DEFAULT_BLOCKED_EXTENSIONS. */
  blocked_extensions: string | null;
  /** JSON array of name keywords; null = DEFAULT_SENSITIVE_KEYWORDS. */
  sensitive_keywords: string | null;
  /** JSON array of the tenant's own classification marks; null = none (migration 0030). */
  secret_marks?: string | null;
  /** Address-list phone rule (common/org/phone-mask.ts); null = DEFAULT_PHONE_MASK. */
  phone_mask?: string | null;
}

export interface SecondUploadChallengesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  fingerprint: string;
  size: number;
  /** Hex, 32 bytes. */
  nonce: string;
  /** JSON ByteRange[]. */
  ranges: string;
  expires_at: number;
}

export interface UnprocessedUploadsTable {
  user_id: string;
  /** The client's key for the item. */
  upload_key: string;
  tenant_id: string;
  name: string;
  parent_id: string | null;
  category: number;
  reason: string;
  created_at: number;
  decided_at: number | null;
  /** 'newVersion' | 'rename' | 'giveUp' once decided. */
  decision: string | null;
}

/** An outbox replay's client operation id and the answer it got (http/client-ops.ts). */
export interface ClientOpsTable {
  user_id: string;
  op_id: string;
  /** SHA-256 of method, path and body: the same id with another request is refused. */
  request_hash: string;
  /** null while the first request runs. */
  status: number | null;
  body: string | null;
  created_at: number;
}

/** An admin switch of a tenant (spec §7 admin switches); absent = DEFAULT_TENANT_SWITCHES. */
export interface TenantSwitchesTable {
  tenant_id: string;
  key: string;
  value: string;
  updated_at: number;
}

/** A tenant's desktop release for one client type (3 internal, 4 public; migration 0088). */
export interface ClientReleasesTable {
  tenant_id: string;
  client_type: number;
  version_name: string;
  version_desc: string;
  is_force: number;
  /** The installer: a file entry of the tenant (null: none uploaded). */
  file_id: string | null;
  updated_by: string;
  updated_at: number;
}

/** A tenant's version of a default dictionary entry (common/api/dictionaries.ts). */
export interface DictItemsTable {
  tenant_id: string;
  group_code: string;
  item_code: string;
  label: string;
  value: string;
  sort: number;
  enabled: number;
  updated_at: number;
}

/** One action log row (migration 0011; the chain: services/action-log/chain.ts). */
export interface ActionLogTable {
  /** '' = the platform's own chain (failed logins of unknown accounts, platform-wide events). */
  tenant_id: string;
  /** 1, 2, 3… within the tenant, without gaps. */
  seq: number;
  at: number;
  actor_id: string | null;
  actor_account: string;
  actor_name: string;
  /** RoleCode, or '' for an unknown account, 'system' for the server itself. */
  actor_role: string;
  dept_id: string | null;
  /** An ActionCode (common/api/action-codes.ts). */
  action: string;
  /** JSON ActionTarget[]. */
  targets: string;
  /** The targets' names, NFC lower case, one per line: what the file-name filter matches. */
  names_key: string;
  /** JSON object or null: what else the action needs to be understood (new name, destination…). */
  detail: string | null;
  outcome: 'ok' | 'refused';
  error_code: string | null;
  address: string;
  /** 3 internal build, 4 public build (spec §9), null when unknown. */
  client_type: number | null;
  network_env: string;
  platform: string;
  user_agent: string;
  prev_hash: string;
  hash: string;
}

/** The tail of each tenant's chain, and where pruning stopped. */
export interface ActionLogHeadsTable {
  tenant_id: string;
  seq: number;
  hash: string;
  /** Rows with seq <= anchor_seq were pruned; anchor_hash is the hash of row anchor_seq. */
  anchor_seq: number;
  anchor_hash: string;
  /**
   * HMAC-SHA-256 (chain key) over tenant, seq, hash and anchor (chain.ts headMac; migration 0083):
   * a head moved without the key is found. NULL only for a head of before 0083 not yet sealed.
   */
  mac: string | null;
}

/** A share of an entry with a person, a department (and its sub-departments) or a group's members (migration 0050). */
export interface SharesTable {
  id: string;
  tenant_id: string;
  file_id: string;
  owner_id: string;
  recipient_type: 'user' | 'dept' | 'group';
  recipient_id: string;
  permission: 'preview' | 'download' | 'edit';
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  revoked_at: number | null;
  application_id: string | null;
  /** JSON ApprovedShareTerms / ApprovedLinkTerms (common/api/share-terms.ts): the approval's ceiling; null = made without approval. */
  approved_terms: string | null;
}

export interface ShareLinksTable {
  id: string;
  tenant_id: string;
  file_id: string;
  owner_id: string;
  /** Hex SHA-256 of the token. */
  token_hash: string;
  /** The token and code sealed with the link key (services/sharing/link-secrets.ts). */
  token_sealed: string;
  code_sealed: string | null;
  expires_at: number | null;
  download_limit: number | null;
  download_count: number;
  view_count: number;
  preview_only: number;
  created_at: number;
  updated_at: number;
  revoked_at: number | null;
  application_id: string | null;
  /** JSON ApprovedShareTerms / ApprovedLinkTerms (common/api/share-terms.ts): the approval's ceiling; null = made without approval. */
  approved_terms: string | null;
}

export interface ShareLinkTicketsTable {
  /** Hex SHA-256 of the ticket. */
  id_hash: string;
  link_id: string;
  tenant_id: string;
  /** JSON string[]: one file, or the entries of a ZIP. */
  file_ids: string;
  created_at: number;
  expires_at: number;
  /** When its first response started. */
  used_at: number | null;
  /** Bytes its responses took of the one copy it gives (reserved before sending; the unsent given back). */
  served: number;
  /** Bytes given back to resumes from inside a broken response's span (bounded by TICKET_RESUME_ALLOWANCE). */
  credited: number;
  /** The span [cut_start, cut_end) the last broken response handed to the network; null when none. */
  cut_start: number | null;
  cut_end: number | null;
}

export interface LinkFailuresTable {
  /** `tok:<token hash>` or `addr:<client address>`. */
  key: string;
  failures: number;
  first_failure_at: number;
  last_failure_at: number;
  locked_until: number | null;
}

export interface ShareApplicationsTable {
  id: string;
  tenant_id: string;
  applicant_id: string;
  kind: 'share' | 'link';
  /** JSON string[]. */
  file_ids: string;
  /** JSON: the share's recipients, permission and validity, or the link's settings. */
  settings: string;
  reason: string;
  state: 'pending' | 'approved' | 'rejected' | 'withdrawn' | 'expired';
  level: number;
  levels: number;
  /** Who decides the current level (pending), or decided last. */
  approver_id: string | null;
  comment: string;
  share_ids: string;
  link_ids: string;
  created_at: number;
  updated_at: number;
  expires_at: number;
}

export interface ShareApplicationStepsTable {
  id: string;
  application_id: string;
  tenant_id: string;
  kind: 'submit' | 'approve' | 'reject' | 'withdraw' | 'expire' | 'created';
  level: number;
  actor_id: string | null;
  at: number;
  comment: string;
}

/** A tenant's security settings by key ('sharePolicy', 'exchangeRules'), JSON values. */
export interface SecuritySettingsTable {
  tenant_id: string;
  key: string;
  value: string;
  updated_at: number;
}

export interface ExchangeFilesTable {
  file_id: string;
  tenant_id: string;
  owner_id: string;
  side: 'internal' | 'public';
  state: 'pending' | 'passed' | 'intercepted';
  blob_id: string | null;
  reason: string | null;
  checked_at: number | null;
  processed_at: number | null;
  processing: string | null;
  created_at: number;
}

/** One file message of one recipient (migration 0070, services/notices/). */
export interface FileMessagesTable {
  id: string;
  tenant_id: string;
  user_id: string;
  /** A FileMessageType (common/api/notices.ts). */
  type: string;
  actor_id: string | null;
  actor_name: string;
  file_id: string | null;
  /** The entry's name when the event happened (shown only while the reader may still see the entry). */
  file_name: string;
  is_dir: number;
  item_count: number;
  ref_id: string | null;
  /** JSON FileMessageDetail or null. */
  detail: string | null;
  /** Coalescing key (e.g. `link:<id>:<hour>`): one message per recipient while set. */
  batch_key: string | null;
  created_at: number;
  read_at: number | null;
}

/** Per user: unread file messages (kept with every change) and whether the quota warning stands. */
export interface NoticeCountersTable {
  user_id: string;
  file_unread: number;
  quota_warned: number;
}

/** A system notice (公告); tenant_id '' = the platform's, for every tenant. */
export interface SystemNoticesTable {
  id: string;
  tenant_id: string;
  title: string;
  /** Sanitised HTML. */
  content: string;
  summary: string;
  /** 1 = the whole tenant; 0 = the rows of system_notice_targets. */
  audience_all: number;
  important: number;
  pinned: number;
  state: 'draft' | 'published' | 'withdrawn';
  publish_at: number | null;
  withdrawn_at: number | null;
  created_by: string;
  author_name: string;
  created_at: number;
  updated_at: number;
}

export interface SystemNoticeTargetsTable {
  notice_id: string;
  /** 'dept': that department and everything below it; 'user': one person. */
  kind: 'dept' | 'user';
  target_id: string;
}

export interface SystemNoticeReadsTable {
  user_id: string;
  notice_id: string;
  read_at: number | null;
  popped_at: number | null;
}

/** A day's aggregate of one metric (migration 0087, repositories/usage-stats-repository.ts). */
export interface UsageDailyTable {
  tenant_id: string;
  day: number;
  /** A UsageMetric (common/api/reports.ts). */
  metric: string;
  /** The actor's department at the time; '' when none (a link visitor, the server). */
  dept_id: string;
  /** The metric's dimension (file type, client|network, approver id…), '' when none. */
  dim: string;
  count: number;
  bytes: number;
}

/** Text extracted from a blob (migration 0098; services/content/content-text-service.ts). */
export interface BlobTextsTable {
  /** Integer key (SQLite's FTS5 indexes rows by integer); assigned by the database. */
  doc: Generated<number>;
  blob_id: string;
  tenant_id: string;
  /** The text, at most CONTENT_TEXT_MAX_CHARS characters (truncated = 1 when cut). */
  body: string;
  /** JSON array of character offsets where each page begins (PDFs and renditions); null = no pages. */
  page_starts: string | null;
  chars: number;
  truncated: number;
  created_at: number;
  /** Hash of the sensitive-keyword list the text was last checked against; null = never. */
  scanned_hash: string | null;
}

/** A tenant's sensitive keyword found in a blob's text: its first place. */
export interface BlobTextHitsTable {
  blob_id: string;
  tenant_id: string;
  keyword: string;
  at_char: number;
  /** 1-based page of a paged text; null otherwise. */
  page: number | null;
}

/** The re-scan of a tenant's texts after its keyword list changed (one row per tenant, the latest). */
export interface ContentScanJobsTable {
  tenant_id: string;
  keywords_hash: string;
  total: number;
  done: number;
  hits: number;
  /** The last doc checked: the job resumes after it. */
  after_doc: number;
  started_at: number;
  finished_at: number | null;
  lease_owner: string | null;
  lease_until: number | null;
}

/** What a document job is doing (migration 0097; services/documents/). */
export type DocumentJobStatus = 'queued' | 'running' | 'done' | 'failed';

/** One blob's documents job: its PDF rendition, text and first-page thumbnail (docs/documents.md). */
export interface DocumentJobsTable {
  blob_id: string;
  tenant_id: string;
  /** common/files/documents.ts DocumentKind. */
  kind: string;
  /** The name of the file it was queued for (its extension tells LibreOffice the format; shown to admins). */
  name: string;
  status: DocumentJobStatus;
  attempts: number;
  error: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  queued_at: number;
  started_at: number | null;
  finished_at: number | null;
  duration_ms: number | null;
  input_size: number;
  output_size: number | null;
  /** Peak resident memory of the converter's processes (sampled), KiB. */
  peak_rss_kb: number | null;
  text_chars: number | null;
  /** The PDF rendition's one-piece key in the blob store (Office documents), recorded before it is written. */
  rendition_key: string | null;
  /** 1 once the first-page thumbnail is in the thumbnail store. */
  thumbnail: number;
  /** When someone first waited for this job while it waited (migration 0099): taken first; null once it ends. */
  requested_at: number | null;
}

/** A WebDAV lock on one entry (migration 0096; server/dav/locks/). Valid while files.locked_by names user_id. */
export interface DavLocksTable {
  /** The full state token, 'opaquelocktoken:' + a UUID. */
  token: string;
  tenant_id: string;
  entry_id: string;
  user_id: string;
  scope: 'exclusive' | 'shared';
  /** 1 = Depth infinity (a collection and all its members), 0 = the entry alone. */
  deep: number;
  /** The client's <D:owner> content as XML, returned as given in lockdiscovery. */
  owner_xml: string | null;
  /** Seconds granted (null = Infinite); expires_at is when it lapses (null = never). */
  timeout_s: number | null;
  expires_at: number | null;
  /** 1 when this lock set files.locked_by: its UNLOCK or expiry clears it again. */
  took_product_lock: number;
  created_at: number;
}

/** A WebDAV dead property (PROPPATCH) of one entry: namespace URI ('' for none), local name, inner XML. */
export interface DavPropertiesTable {
  entry_id: string;
  ns: string;
  name: string;
  value_xml: string;
}

export interface Database {
  document_jobs: DocumentJobsTable;
  tenants: TenantsTable;
  users: UsersTable;
  sessions: SessionsTable;
  captchas: CaptchasTable;
  files: FilesTable;
  name_sort_key_state: { id: number; version: string };
  blobs: BlobsTable;
  uploads: UploadsTable;
  upload_chunks: UploadChunksTable;
  file_versions: FileVersionsTable;
  tenant_settings: TenantSettingsTable;
  second_upload_challenges: SecondUploadChallengesTable;
  unprocessed_uploads: UnprocessedUploadsTable;
  login_failures: LoginFailuresTable;
  sms_codes: SmsCodesTable;
  spaces: SpacesTable;
  space_members: SpaceMembersTable;
  favorites: FavoritesTable;
  text_holds: TextHoldsTable;
  client_ops: ClientOpsTable;
  action_log: ActionLogTable;
  action_log_heads: ActionLogHeadsTable;
  tenant_switches: TenantSwitchesTable;
  client_releases: ClientReleasesTable;
  gesture_patterns: GesturePatternsTable;
  dict_items: DictItemsTable;
  departments: DepartmentsTable;
  user_import_batches: UserImportBatchesTable;
  finished_uploads: FinishedUploadsTable;
  blob_intents: BlobIntentsTable;
  shares: SharesTable;
  share_links: ShareLinksTable;
  share_link_tickets: ShareLinkTicketsTable;
  link_failures: LinkFailuresTable;
  share_applications: ShareApplicationsTable;
  share_application_steps: ShareApplicationStepsTable;
  security_settings: SecuritySettingsTable;
  exchange_files: ExchangeFilesTable;
  stale_fingerprints: StaleFingerprintsTable;
  file_messages: FileMessagesTable;
  notice_counters: NoticeCountersTable;
  system_notices: SystemNoticesTable;
  system_notice_targets: SystemNoticeTargetsTable;
  system_notice_reads: SystemNoticeReadsTable;
  usage_daily: UsageDailyTable;
  blob_texts: BlobTextsTable;
  blob_text_hits: BlobTextHitsTable;
  content_scan_jobs: ContentScanJobsTable;
  device_passwords: DevicePasswordsTable;
  dav_locks: DavLocksTable;
  dav_properties: DavPropertiesTable;
}
