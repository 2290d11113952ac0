import type { Readable } from 'node:stream';
import type { MenuItem, PagePermission, SystemConfig, TenantConfig } from '../../common/api/types';
import { ERRORS } from '../../common/api/errors';
import { DEFAULT_HOME_PAGE, isHomePage } from '../../common/api/tenant';
import { AppError } from '../http/app-error';
import type { TenantRepository } from '../repositories/tenant-repository';
import type { BlobStore } from '../storage/byte-store';
import type { Caller } from './caller';
import { backgroundUrlOf, logoUrlOf } from './tenant-urls';

/** Every page button permission code; admins hold all of them. */
export const ALL_PERMISSIONS = [
  'file:upload',
  'file:mkdir',
  'file:rename',
  'file:download',
  'file:move',
  'file:copy',
  'file:delete',
  // issue 5: the §3 suggested actions and the other file operations, one code each
  'file:createTxt',
  'file:favorite',
  'file:lock',
  'file:unlock',
  'file:newVersion',
  'file:versions',
  'file:preview',
  'file:zip',
  'file:restore',
  'file:purge',
  /** Column-header and toolbar sort of a file list (spec §3 "sort"). */
  'file:sort',
  'group:create',
  'group:manage',
  /** Lock/unlock accounts, set roles and outer login (the adminOnly /api/v2/account, setRoles, outerLogin calls). */
  'system:user',
  /** Export of the action log (操作日志); reading it is adminOnly on the server. */
  'system:actionLog',
  /** Issue 14: add, edit, delete and batch-add accounts, hand over files; the department tree. */
  'system:userEdit',
  'system:department',
  // issue 15: sharing. share:create covers shares and links (the policy decides about approval);
  // share:approve the approver's decisions; file:swap the exchange area's check; system:fileSecurity
  // the sharing policy and exchange rules page.
  'share:create',
  'share:approve',
  'file:swap',
  'system:fileSecurity',
] as const;
const MEMBER_PERMISSIONS = ALL_PERMISSIONS.filter((c) => !c.startsWith('system:'));

const FILE_MENU: MenuItem = {
  code: 'file',
  name: '文件',
  url: '/main/file/personal',
  icon: 'folder',
  children: [
    { code: 'file-personal', name: '个人文件', url: '/main/file/personal', icon: 'user' },
    { code: 'file-backups', name: '同步文件', url: '/main/file/backups', icon: 'sync' },
    { code: 'file-share', name: '共享文件', url: '/main/file/share', icon: 'share' },
    { code: 'file-other', name: '交换区', url: '/main/file/other', icon: 'swap' },
    { code: 'file-favorite', name: '我的收藏', url: '/main/file/favorite', icon: 'star' },
    { code: 'file-public', name: '公共空间', url: '/main/file/publicSpace', icon: 'global' },
    { code: 'file-recycle', name: '回收站', url: '/main/file/recycle', icon: 'delete' },
    { code: 'file-search', name: '搜索', url: '/main/file/search', icon: 'search', hidden: true },
  ],
};
/** 分享审批 (spec §2 /main/safe, default myApply): my shares and links, my applications, the approver's queue. */
const SAFE_MENU: MenuItem = {
  code: 'safe',
  name: '分享审批',
  url: '/main/safe/myApply',
  icon: 'safe',
  children: [
    { code: 'safe-myShare', name: '我的分享', url: '/main/safe/myShare', icon: 'share' },
    { code: 'safe-myApply', name: '我的申请', url: '/main/safe/myApply', icon: 'file' },
    { code: 'safe-dealApply', name: '审批', url: '/main/safe/dealApply', icon: 'audit' },
  ],
};
const COMMON_MENU: MenuItem[] = [
  FILE_MENU,
  SAFE_MENU,
  { code: 'group', name: '群组空间', url: '/main/group', icon: 'team' },
  { code: 'addressList', name: '通讯录', url: '/main/addressList', icon: 'contacts' },
  {
    code: 'notice',
    name: '消息',
    url: '/main/notice',
    icon: 'bell',
    children: [
      { code: 'notice-file', name: '文件消息', url: '/main/notice/fileNotice', icon: 'file' },
      { code: 'notice-system', name: '系统消息', url: '/main/notice/systemNotice', icon: 'bell' },
    ],
  },
  {
    code: 'user',
    name: '个人中心',
    url: '/main/user/userInfo',
    icon: 'idcard',
    // Both pages listed: the client's route guard (spec §2) only lets saved menu routes through.
    children: [
      { code: 'user-info', name: '基本信息', url: '/main/user/userInfo', icon: 'user' },
      { code: 'user-safe', name: '账号安全', url: '/main/user/accountSafe', icon: 'safe' },
    ],
  },
];
const ADMIN_MENU: MenuItem = {
  code: 'system',
  name: '系统管理',
  url: '/main/system',
  icon: 'setting',
  children: [
    { code: 'system-desk', name: '工作台', url: '/main/system/desk', icon: 'appstore' },
    { code: 'system-user', name: '用户管理', url: '/main/system/user/list', icon: 'user' },
    { code: 'system-config', name: '系统配置', url: '/main/system/systemConfig', icon: 'setting' },
    { code: 'system-actionLog', name: '操作日志', url: '/main/system/actionLog', icon: 'audit' },
    { code: 'system-department', name: '部门管理', url: '/main/system/department', icon: 'team' },
    { code: 'system-fileSecurity', name: '文件安全', url: '/main/system/fileSecurity', icon: 'safe' },
    { code: 'system-notice', name: '公告管理', url: '/main/system/notice', icon: 'notice' },
    { code: 'system-reportForm', name: '统计报表', url: '/main/system/reportForm', icon: 'barChart' },
  ],
};

function menuUrls(items: readonly MenuItem[], into = new Set<string>()): Set<string> {
  for (const item of items) {
    into.add(item.url);
    if (item.children) menuUrls(item.children, into);
  }
  return into;
}

function withoutModules(items: readonly MenuItem[], off: ReadonlySet<string>): MenuItem[] {
  return items.filter((item) => !off.has(item.code)).map((item) => (item.children ? { ...item, children: withoutModules(item.children, off) } : item));
}

export interface ConfigServiceDeps {
  tenants: TenantRepository;
  blobs: BlobStore;
  passwordExpiryDays: number;
  /** Menu item codes the tenant turned off (dictionary group module-switch). */
  disabledModules?: (tenantId: string) => Promise<ReadonlySet<string>>;
  /** The tenant's help line (static data `customerTelephone`; '' when off). */
  customerTelephone?: (tenantId: string) => Promise<string>;
}

export class ConfigService {
  private readonly disabledModules: (tenantId: string) => Promise<ReadonlySet<string>>;
  constructor(private readonly deps: ConfigServiceDeps) {
    this.disabledModules = deps.disabledModules ?? (async () => new Set());
  }

  private async tenantFor(caller: Caller | null) {
    const tenant = caller ? await this.deps.tenants.findById(caller.tenantId) : await this.deps.tenants.findDefault();
    if (!tenant) throw new AppError(ERRORS.INTERNAL, 'no tenant configured');
    return tenant;
  }

  async systemConfig(caller: Caller | null): Promise<SystemConfig> {
    const tenant = await this.tenantFor(caller);
    const customerTelephone = this.deps.customerTelephone ? await this.deps.customerTelephone(tenant.id) : '';
    return { brandName: tenant.brand_name, logo: logoUrlOf(tenant), loginBackground: backgroundUrlOf(tenant), customerTelephone };
  }

  /** The logo of a tenant (the default tenant when the id is unknown or absent): the generated SVG or an uploaded WebP. */
  async logo(tenantId: string | undefined): Promise<{ stream: Readable; type: 'svg' | 'webp' } | null> {
    const tenant = (tenantId && (await this.deps.tenants.findById(tenantId))) || (await this.deps.tenants.findDefault());
    if (!tenant?.logo_key) return null;
    return { stream: this.deps.blobs.openRead(tenant.logo_key), type: tenant.logo_type === 'webp' ? 'webp' : 'svg' };
  }

  /** The login background of a tenant (the default tenant when the id is unknown or absent), always WebP. */
  async loginBackground(tenantId: string | undefined): Promise<Readable | null> {
    const tenant = (tenantId && (await this.deps.tenants.findById(tenantId))) || (await this.deps.tenants.findDefault());
    return tenant?.background_key ? this.deps.blobs.openRead(tenant.background_key) : null;
  }

  async tenantConfig(caller: Caller): Promise<TenantConfig> {
    const tenant = await this.tenantFor(caller);
    return { tenantId: tenant.id, tenantName: tenant.name, passwordExpiryDays: this.deps.passwordExpiryDays };
  }

  /** The caller's menu without the modules the tenant turned off (spec §7 module-switch; the route guard follows the menu). */
  async menu(caller: Pick<Caller, 'tenantId' | 'role'>): Promise<MenuItem[]> {
    const menu = caller.role === 'admin' ? [...COMMON_MENU, ADMIN_MENU] : COMMON_MENU;
    const off = await this.disabledModules(caller.tenantId);
    return off.size === 0 ? menu : withoutModules(menu, off);
  }

  pagePermissions(caller: Caller): PagePermission[] {
    return (caller.role === 'admin' ? ALL_PERMISSIONS : MEMBER_PERMISSIONS).map((code) => ({ code }));
  }

  /**
   * The tenant's home page (spec §2, set in 系统配置), or the default where the caller's menu does not
   * hold it (its module turned off): the route guard would send them to /error.
   */
  async homeUrl(caller: Pick<Caller, 'tenantId' | 'role'>): Promise<string> {
    const tenant = await this.deps.tenants.findById(caller.tenantId);
    const home = tenant?.home_url;
    if (!home || !isHomePage(home)) return DEFAULT_HOME_PAGE;
    const menu = await this.menu(caller);
    return menuUrls(menu).has(home) ? home : DEFAULT_HOME_PAGE;
  }
}
