/**
 * 工作台 (/main/system/desk) and 统计报表 (/main/system/reportForm), issue 38: the payloads of the
 * admin aggregates (requests: endpoints/reports.ts). Every figure is an aggregate the server keeps
 * (usage_daily, migration 0087) or reads from an index; the browser never counts rows.
 */

const DAY_MS = 86_400_000;
/**
 * Days are China Standard Time days (UTC+8, no daylight saving): the product is for Chinese
 * enterprises, and a day must mean the same on every server and in every browser.
 */
export const STATS_TZ_OFFSET_MS = 8 * 3_600_000;

/** The stats day of a time (days since 1970-01-01 in UTC+8). */
export function statsDayOf(at: number): number {
  return Math.floor((at + STATS_TZ_OFFSET_MS) / DAY_MS);
}

/** When a stats day starts (ms since the epoch). */
export function statsDayStart(day: number): number {
  return day * DAY_MS - STATS_TZ_OFFSET_MS;
}

/** `yyyy-MM-dd` of a stats day. */
export function statsDayLabel(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The stats day of a `yyyy-MM-dd` date, or null when it is not one. */
export function statsDayOfLabel(label: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(label)) return null;
  const ms = Date.parse(`${label}T00:00:00Z`);
  if (!Number.isFinite(ms) || statsDayLabel(ms / DAY_MS) !== label) return null;
  return ms / DAY_MS;
}

/** The longest date range a report covers (days). */
export const REPORT_MAX_DAYS = 1_100;

/**
 * What usage_daily counts (server/repositories/usage-stats.ts derives them from the action log's rows):
 * - upload: files uploaded (new files and new versions, ok); uploadType: the same by type, dim = the
 *   extension in lower case (the daily series read the rows without a dimension: fewer rows);
 * - download: downloads by members (a file, a ZIP, an old version);
 * - login / loginFailed: sign-ins, dim = `<client>|<network>` (client 3, 4 or web; network internal or public);
 * - active: people's first action of the day (so a day's count is its active people);
 * - shareCreate, linkCreate, linkVisit (a link opened), linkDownload (a download through a link);
 * - apply: applications, dim = `<outcome>|<approver id>` (submit, approve, reject, withdraw, expire);
 * - storage: a snapshot of the department's used bytes (count = its people), the last one of the day.
 */
export const USAGE_METRICS = ['upload', 'uploadType', 'download', 'login', 'loginFailed', 'active', 'shareCreate', 'linkCreate', 'linkVisit', 'linkDownload', 'apply', 'storage'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];

/** The department key of a row that counts the whole tenant (each delta is kept once per department and once here). */
export const ALL_DEPARTMENTS = '*';

export type LoginClient = '3' | '4' | 'web';
export const LOGIN_CLIENT_LABELS: Record<LoginClient, string> = { '3': '内网客户端（3）', '4': '外网客户端（4）', web: '网页' };
export type LoginNetwork = 'internal' | 'public';
export const LOGIN_NETWORK_LABELS: Record<LoginNetwork, string> = { internal: '内网', public: '外网' };

export type ApplyOutcome = 'submit' | 'approve' | 'reject' | 'withdraw' | 'expire';
export const APPLY_OUTCOME_LABELS: Record<ApplyOutcome, string> = { submit: '提交', approve: '通过', reject: '驳回', withdraw: '撤回', expire: '过期' };

// ---- 工作台 ----------------------------------------------------------------------------------------

export interface StorageFigure {
  used: number;
  /** The quotas given to the people counted (the tenant has no quota of its own). */
  quota: number;
  people: number;
}

export interface DepartmentStorage extends StorageFigure {
  id: string;
  name: string;
}

export interface PersonStorage {
  id: string;
  account: string;
  name: string;
  departmentName: string;
  used: number;
  quota: number;
}

export interface TransferDay {
  /** yyyy-MM-dd (UTC+8). */
  day: string;
  uploads: number;
  uploadBytes: number;
  downloads: number;
  downloadBytes: number;
}

export interface DesktopVersionInUse {
  clientType: 3 | 4;
  /** The desktop client's version as its sessions' User-Agent gives it ('' unknown). */
  version: string;
  /** Signed-in sessions (not expired) of that version. */
  sessions: number;
  people: number;
}

/** `GET /api/admin/desk`: the tenant at a glance. */
export interface DeskSummary {
  /** yyyy-MM-dd of today (UTC+8). */
  today: string;
  storage: StorageFigure;
  topDepartments: DepartmentStorage[];
  topPeople: PersonStorage[];
  active: { today: number; days7: number; days30: number; people: number };
  /** The last 30 days, oldest first, today last. */
  transfers: TransferDay[];
  pendingApplications: number;
  /** Exchange-area files intercepted and not dealt with; `sensitive`: of them, for a sensitive word. */
  intercepted: { total: number; sensitive: number };
  lockedAccounts: number;
  /** Refused sign-ins of the tenant's accounts in the last 24 hours. */
  failedLogins24h: number;
  desktopVersions: DesktopVersionInUse[];
}

// ---- 统计报表 --------------------------------------------------------------------------------------

export const REPORT_KINDS = ['storage', 'growth', 'fileTypes', 'sharing', 'logins'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export const REPORT_KIND_LABELS: Record<ReportKind, string> = {
  storage: '存储占用',
  growth: '增长趋势',
  fileTypes: '文件类型',
  sharing: '分享活动',
  logins: '登录统计',
};

export interface StorageReport {
  kind: 'storage';
  totals: StorageFigure;
  /** Each department of the filter with its own people (`subtree`: with everything under it). */
  departments: Array<DepartmentStorage & { path: string; subtree: StorageFigure }>;
  /** The people of the filter by used bytes, most first (at most REPORT_PEOPLE_ROWS; the export has all). */
  people: PersonStorage[];
}
export const REPORT_PEOPLE_ROWS = 200;

export interface GrowthDay extends TransferDay {
  /** Used bytes at the day's snapshot (null: no snapshot that day). */
  storedBytes: number | null;
  activePeople: number;
}
export interface GrowthReport {
  kind: 'growth';
  days: GrowthDay[];
  totals: { uploads: number; uploadBytes: number; downloads: number; downloadBytes: number };
}

export interface FileTypeRow {
  /** Lower-case extension, '' for names without one. */
  ext: string;
  count: number;
  bytes: number;
}
export interface FileTypesReport {
  kind: 'fileTypes';
  /** Files uploaded in the range by type, most first. */
  types: FileTypeRow[];
  totals: { count: number; bytes: number };
}

export interface SharingDay {
  day: string;
  shares: number;
  links: number;
  linkVisits: number;
  linkDownloads: number;
}
export interface ApproverRow {
  id: string;
  name: string;
  approve: number;
  reject: number;
}
export interface SharingReport {
  kind: 'sharing';
  days: SharingDay[];
  totals: { shares: number; links: number; linkVisits: number; linkDownloads: number };
  applications: Record<ApplyOutcome, number>;
  approvers: ApproverRow[];
}

export interface LoginRow {
  client: LoginClient;
  network: LoginNetwork;
  logins: number;
  failed: number;
}
export interface LoginDay {
  day: string;
  web: number;
  client3: number;
  client4: number;
  failed: number;
}
export interface LoginsReport {
  kind: 'logins';
  rows: LoginRow[];
  days: LoginDay[];
  totals: { logins: number; failed: number };
}

export type Report = StorageReport | GrowthReport | FileTypesReport | SharingReport | LoginsReport;
