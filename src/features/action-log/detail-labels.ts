/**
 * The 详情 of an action-log record in Chinese (issue 44): each key the server records by its label,
 * each value as a person reads it — names for ids the page knows (the record's own objects, the
 * departments), 是/否, times, sizes, roles and the few coded values. A key without a label (a newer
 * server's) is still shown, under its own name; so is an id nobody can name.
 */
import { HOME_PAGES } from '../../../common/api/tenant';
import { ROLES } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';

/** Every key the server writes into a record's detail (server/services/**: actionLog.record, appendSystem). */
export const DETAIL_LABELS: Record<string, string> = {
  // places and people
  parentId: '上级 / 所在文件夹',
  fromParentId: '原上级部门',
  toParentId: '新上级部门',
  beforeId: '排在其前',
  targetParentId: '保存到的文件夹',
  parentName: '所在文件夹',
  category: '文件分类',
  spaceId: '所在空间',
  fromSpaceIds: '来源空间',
  departmentId: '部门',
  managerId: '负责人',
  approverId: '审批人',
  applicantId: '申请人',
  nextApproverId: '下一级审批人',
  toId: '接收人',
  toAccount: '接收人账号',
  account: '账号',
  via: '操作途径',
  tenantId: '租户',
  linkId: '分享链接',
  batchId: '导入批次',
  // what changed
  before: '修改前',
  from: '原值',
  to: '新值',
  changed: '修改的字段',
  moved: '移动人数',
  role: '角色',
  previousRole: '原角色',
  leaving: '退出者',
  passwordReset: '重置密码',
  enabled: '启用',
  nickName: '昵称',
  avatar: '头像',
  phone: '手机号',
  phoneMask: '手机号显示规则',
  devices: '结束的登录设备',
  // files and transfers
  method: '上传方式',
  onConflict: '同名时',
  purpose: '用途',
  typeChecks: '类型与内容检查',
  decision: '处理方式',
  reason: '原因',
  size: '大小',
  bytes: '字节数',
  entries: '条目数',
  paths: '路径数',
  skipped: '跳过',
  name: '名称',
  all: '全部',
  retried: '重新排队数',
  placed: '已放入',
  versionNo: '版本号',
  clientType: '客户端类型',
  versionName: '版本名称',
  versionDesc: '版本说明',
  isForce: '强制更新',
  installer: '安装包',
  fileId: '文件',
  homeUrl: '首页',
  brandName: '品牌名称',
  alias: '登录地址别名',
  folderName: '文件夹名',
  fileName: '文件名',
  files: '文件数',
  folders: '文件夹数',
  imported: '已导入',
  items: '条目数',
  created: '新建',
  newVersions: '新版本数',
  newVersionIds: '更新为新版本的文件',
  versionOf: '上传新版本的文件',
  // WebDAV PROPPATCH (file.davProperties): property names in Clark notation
  set: '设置的属性',
  removed: '删除的属性',
  count: '属性数',
  // sharing and approval
  kind: '类型',
  applyKind: '申请类型',
  permission: '权限',
  viaShare: '通过分享（权限）',
  validityDays: '有效天数',
  downloadLimit: '下载次数上限',
  previewOnly: '仅可预览',
  codeChanged: '修改了提取码',
  expiresAt: '到期时间',
  level: '审批级别',
  levels: '审批级数',
  comment: '审批意见',
  widened: '放宽了分享条件',
  tokenKnown: '链接存在',
  downloadNo: '第几次下载',
  downloads: '下载次数',
  firstAt: '首次时间',
  passed: '通过',
  intercepted: '拦截',
  sharePolicy: '分享审批策略',
  exchangeRules: '交换区规则',
  sensitiveKeywords: '敏感词',
  // notices, quota, system
  publish: '发布',
  publishAt: '发布时间',
  important: '重要',
  pinned: '置顶',
  audience: '接收范围',
  group: '群组',
  percent: '已用比例（%）',
  used: '已用空间',
  quota: '空间配额',
  route: '接口',
  format: '格式',
  filter: '筛选条件',
  seq: '序号',
  hash: '哈希',
  keyId: '密钥编号',
  // 手势密码
  points: '手势连接点数',
  replaced: '替换原有手势',
  hadPattern: '原已设置手势',
  try: '连续第几次尝试',
  signedOut: '已退出登录',
};

const YES_NO = (v: boolean) => (v ? '是' : '否');
const TIME_KEYS = new Set(['expiresAt', 'firstAt', 'publishAt', 'at']);
const SIZE_KEYS = new Set(['size', 'bytes', 'used', 'quota']);
const ROLE_KEYS = new Set(['role', 'previousRole', 'from', 'to']);
const ROLE_NAMES: Record<string, string> = Object.fromEntries(ROLES.map((r) => [r.code, r.name]));
const CATEGORY_NAMES: Record<number, string> = { 1: '个人文件', 2: '共享文件', 3: '交换区', 4: '同步文件' };
const CLIENT_TYPE_NAMES: Record<number, string> = { 3: '内网客户端（3）', 4: '外网客户端（4）' };
/** A home page (系统配置 → 首页) by its menu name, wherever a value is one of them. */
const HOME_PAGE_NAMES: Record<string, string> = Object.fromEntries(HOME_PAGES.map((p) => [p.url, p.label]));

/** Coded values, by key: what each means. */
const VALUE_LABELS: Record<string, Record<string, string>> = {
  method: { instant: '秒传', chunks: '分片上传' },
  onConflict: { fail: '不覆盖（报错）', newVersion: '作为新版本', rename: '自动重命名' },
  purpose: { clientInstaller: '客户端安装包（系统配置 → 客户端版本）' },
  typeChecks: { skipped: '已豁免（可设置客户端版本的管理员上传安装包）' },
  decision: { newVersion: '作为新版本上传', rename: '重命名后上传', dismiss: '放弃', keep: '保留', giveUp: '放弃上传', upload: '上传' },
  kind: { share: '内部分享', link: '外链分享' },
  applyKind: { share: '内部分享', link: '外链分享' },
  permission: { preview: '预览', download: '下载', edit: '编辑' },
  viaShare: { preview: '预览', download: '下载', edit: '编辑' },
  reason: { recycleRetention: '回收站保留期满', admin: '管理员操作', edited: '在线编辑', noHead: '无当前版本' },
  audience: { all: '全部人员' },
  format: { csv: 'CSV', xlsx: 'Excel', json: 'JSON' },
};

export interface DetailRow {
  key: string;
  label: string;
  value: string;
}

/** Names for ids: the record's objects and the departments. Null when nobody can name it. */
export type NameOf = (id: string) => string | null;

/** Keys naming a folder or a department above: null is the top. */
const PLACE_KEYS = new Set(['parentId', 'fromParentId', 'toParentId', 'targetParentId']);

function valueText(key: string, value: unknown, nameOf: NameOf): string {
  if (value === null || value === undefined) return PLACE_KEYS.has(key) ? '顶层' : '无';
  if (typeof value === 'boolean') return YES_NO(value);
  if (typeof value === 'number') {
    if (TIME_KEYS.has(key)) return formatDateTime(value);
    if (SIZE_KEYS.has(key)) return formatSize(value);
    if (key === 'category') return CATEGORY_NAMES[value] ?? String(value);
    if (key === 'clientType') return CLIENT_TYPE_NAMES[value] ?? String(value);
    return String(value);
  }
  if (typeof value === 'string') {
    if (value === '') return '（空）';
    const coded = VALUE_LABELS[key]?.[value];
    if (coded) return coded;
    if (ROLE_KEYS.has(key) && ROLE_NAMES[value]) return ROLE_NAMES[value]!;
    if (key === 'audience' && /^\d+$/.test(value)) return `${value} 个部门或人员`;
    if (HOME_PAGE_NAMES[value]) return HOME_PAGE_NAMES[value]!;
    return nameOf(value) ?? value;
  }
  if (Array.isArray(value)) return value.length === 0 ? '无' : value.map((v) => valueText(key, v, nameOf)).join('、');
  // A nested object (a policy, a filter, a device): its own keys labelled where known.
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${DETAIL_LABELS[k] ?? k}：${valueText(k, v, nameOf)}`)
    .join('；');
}

/** The record's detail as labelled rows, in the order recorded. */
export function detailRows(detail: Record<string, unknown>, nameOf: NameOf): DetailRow[] {
  return Object.entries(detail).map(([key, value]) => ({ key, label: DETAIL_LABELS[key] ?? key, value: valueText(key, value, nameOf) }));
}
