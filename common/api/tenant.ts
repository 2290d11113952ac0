/**
 * Tenant, dictionary and static-data payloads (spec §7 "Tenant", "Dictionary and static data",
 * "Admin switches"; the spec shows none of their fields, so these shapes are ours).
 *
 * Who is a platform admin: a user flagged `platform_admin` (users table). The server flags the first
 * administrator of the first tenant at start when nobody has the flag (the seeded `admin` of a fresh
 * install); more are flagged in the database. A platform admin sees every tenant in /api/tenant/list,
 * may update any tenant (`tenantId` in the requests below) and reads the platform's own action log.
 * A tenant admin sees and changes only their own tenant; another tenant's id answers 404.
 */

import { GESTURE_IDLE_DEFAULT } from '../gesture/pattern';

/** `GET /api/tenant/getAlias?id=` (public; id or alias, absent = the default tenant): what a login page shows. */
export interface TenantAlias {
  tenantId: string;
  /** Short name used in the tenant's login address (/login/{alias}); '' when none. */
  alias: string;
  brandName: string;
  /** URL of the logo, or ''. */
  logo: string;
  /** URL of the login page's background picture, or '' (the default gradient). */
  loginBackground: string;
  /** getAlias only: the tenant's help line (static data `customerTelephone`, '' when off). */
  customerTelephone?: string;
}

/** The admin switches of spec §7 (form-encoded POSTs), as the tenant has them. */
export interface TenantSwitches {
  /** /api/v2/sysSetting/gesture/switch: gesture (pattern) unlock offered in the clients. */
  gesture: boolean;
  /** /api/v2/sysSetting/keyCreate/switch: share links carry an extraction code by default. */
  keyCreate: boolean;
  /**
   * /api/v2/sysSetting/publicDownLoad/switch (公共空间下载): the originals of the public space's files may
   * leave it. Off: listed and previewed only — no download, ZIP, copy or move out, nor a link's
   * download or save, for members, admins and link visitors alike (FILE-3025). Links never ask for a
   * login because of it.
   */
  publicDownLoad: boolean;
  /** /api/v2/sysSetting/exchangeSwitch/switch: the exchange area (category 3) is offered. */
  exchangeSwitch: boolean;
  /**
   * /api/v2/sysSetting/webdav/switch (ours, issue 39): the tenant's users may use WebDAV (/dav/) with
   * their 设备密码. Off: every WebDAV request of the tenant is refused (403), at once.
   */
  webdav: boolean;
  /** /api/v2/defaultConfig/modify/syncTime: minutes between two passes of the desktop sync. */
  syncTime: number;
  /**
   * /api/v2/sysSetting/gesture/idleTime (ours, beside the gesture switch): minutes the app may be idle
   * or hidden before the 手势密码 is asked again (GESTURE_IDLE_MIN..GESTURE_IDLE_MAX).
   */
  gestureIdle: number;
}

/** Each switch's name as people read it: 系统配置's labels, and the object an action-log record names. */
export const TENANT_SWITCH_LABELS: Record<keyof TenantSwitches, string> = {
  gesture: '手势密码',
  keyCreate: '分享提取码',
  publicDownLoad: '公共空间下载',
  exchangeSwitch: '交换区',
  webdav: 'WebDAV',
  syncTime: '同步间隔',
  gestureIdle: '手势密码锁定时间',
};

export const DEFAULT_TENANT_SWITCHES: TenantSwitches = { gesture: false, keyCreate: true, publicDownLoad: true, exchangeSwitch: true, webdav: true, syncTime: 30, gestureIdle: GESTURE_IDLE_DEFAULT };
export const SYNC_TIME_MIN = 1;
export const SYNC_TIME_MAX = 1440;

/** `GET /api/tenant/info/get` (any signed-in user of the tenant; a platform admin may add `?tenantId=`). */
export interface TenantInfo extends TenantAlias {
  name: string;
  createdAt: number;
  updatedAt: number;
  switches: TenantSwitches;
  /** The tenant's home page (one of HOME_PAGES): where `/` and a login lead. */
  homeUrl: string;
}

/** Spec §2: "/ redirects to the configured home page (default /main/file/personal)". */
export const DEFAULT_HOME_PAGE = '/main/file/personal';

/**
 * The pages a tenant may make its home page (系统配置 → 首页): pages every member's menu holds, so the
 * home page never sends anyone to /error. Where the tenant turns a page's module off, its people land
 * on the default instead (the server checks the caller's menu when it answers homeUrl).
 */
export const HOME_PAGES: ReadonlyArray<{ url: string; label: string }> = [
  { url: DEFAULT_HOME_PAGE, label: '个人文件' },
  { url: '/main/file/backups', label: '同步文件' },
  { url: '/main/file/share', label: '共享文件' },
  { url: '/main/file/favorite', label: '我的收藏' },
  { url: '/main/file/publicSpace', label: '公共空间' },
  { url: '/main/group', label: '群组空间' },
  { url: '/main/safe/myApply', label: '我的申请' },
  { url: '/main/notice/fileNotice', label: '文件消息' },
  { url: '/main/addressList', label: '通讯录' },
];

export const isHomePage = (url: string): boolean => HOME_PAGES.some((p) => p.url === url);

/** `GET /api/tenant/list` (admins): every tenant for a platform admin, the own one for a tenant admin. */
export interface TenantSummary {
  tenantId: string;
  name: string;
  alias: string;
  brandName: string;
  createdAt: number;
  userCount: number;
  /** The caller's own tenant. */
  own: boolean;
}

export interface TenantListResponse {
  items: TenantSummary[];
  /** Whether the caller is a platform admin (sees every tenant). */
  platformAdmin: boolean;
}

/** The request payloads (TenantUpdateRequest, SwitchForm, SyncTimeForm) are declared with their calls in endpoints/tenant.ts. */
export const TENANT_LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const TENANT_BACKGROUND_MAX_BYTES = 8 * 1024 * 1024;
export const TENANT_NAME_MAX = 64;
export const TENANT_ALIAS_PATTERN = /^[A-Za-z0-9_-]{2,32}$/;

// ---- dictionaries and static data --------------------------------------------------------------

/** One entry of a dictionary group. `value` is a string; what it means is the group's business. */
export interface DictItem {
  code: string;
  label: string;
  value: string;
  sort: number;
  enabled: boolean;
}

export interface DictGroup {
  code: string;
  name: string;
  items: DictItem[];
}

export type StaticData = Record<string, DictItem[]>;
