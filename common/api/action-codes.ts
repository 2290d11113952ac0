/**
 * The coded actions of the action log (操作日志), shared by the server (which records them) and the
 * web app (which shows their labels and offers them as filters). A code is `<area>.<verb>`; codes are
 * stored in the log, so a code is never renamed or reused for another meaning: add a new one.
 *
 * Each API call that is an action records exactly one entry with one of these codes (outcome ok, or
 * refused with the error code); refused access attempts on calls that are not actions (a 404 on
 * another tenant's id, AUTH-1005 on an admin call) are recorded as `access.denied`.
 */
export const ACTION_AREAS = {
  auth: '登录',
  account: '账号',
  file: '文件',
  group: '群组',
  user: '用户管理',
  dept: '部门管理',
  tenant: '租户与设置',
  audit: '审计',
  report: '统计报表',
  notice: '公告',
  access: '访问控制',
  share: '共享',
  link: '外链分享',
  apply: '分享审批',
  exchange: '交换区',
} as const;
export type ActionArea = keyof typeof ACTION_AREAS;

/** Every action code with its Chinese label (what the 操作日志 page shows). */
export const ACTIONS = {
  'auth.login': '账号密码登录',
  'auth.smsLogin': '短信验证码登录',
  /** A WebDAV sign-in with a 设备密码 that was refused (server/dav/dav-auth.ts); a right one is not an action of its own. */
  'auth.davLogin': 'WebDAV 登录',
  'auth.logout': '退出登录',

  'account.passwordChange': '修改密码',
  'account.phoneBind': '绑定手机号',
  'account.agreementRead': '同意用户协议',
  'account.passwordReset': '短信找回密码',
  'account.profileUpdate': '修改昵称或头像',
  'account.sessionEnd': '退出其他登录设备',
  'account.sessionEndOthers': '退出全部其他设备',
  'account.gestureSet': '设置手势密码',
  'account.gestureClear': '关闭手势密码',
  'account.gestureUnlock': '手势密码解锁',
  'account.gestureLock': '手势密码锁定',
  'account.devicePasswordCreate': '新建设备密码',
  'account.devicePasswordRevoke': '撤销设备密码',

  'file.mkdir': '新建文件夹',
  'file.upload': '上传文件',
  'file.secondUpload': '秒传文件',
  'file.createTxt': '新建文本文件',
  'file.rename': '重命名',
  'file.move': '移动',
  'file.copy': '复制',
  'file.delete': '删除到回收站',
  'file.restore': '从回收站还原',
  'file.purge': '彻底删除',
  'file.download': '下载',
  'file.zip': '打包下载',
  'file.preview': '预览',
  'file.lock': '锁定文件',
  'file.unlock': '解锁文件',
  // WebDAV PROPPATCH that stored or removed dead properties (Explorer's Win32 times, …): names, not values.
  'file.davProperties': '修改 WebDAV 属性',
  'file.versionNew': '上传新版本',
  'file.versionRestore': '恢复历史版本',
  'file.versionDownload': '下载历史版本',
  'file.favorite': '收藏',
  'file.unfavorite': '取消收藏',
  'file.uploadDecision': '处理待定上传',
  'file.renditionRetry': '重新生成文档预览',

  'group.create': '创建群组',
  'group.rename': '重命名群组',
  'group.delete': '删除群组',
  'group.memberAdd': '添加群组成员',
  'group.memberRole': '设置群组成员角色',
  'group.memberRemove': '移除群组成员',

  'user.setRole': '设置角色',
  'user.lock': '锁定账号',
  'user.unlock': '解锁账号',
  'user.outerLogin': '设置外网登录',
  // For the organisation work (issue 14, people and departments): record these from its services.
  'user.create': '新增用户',
  'user.update': '编辑用户',
  'user.delete': '删除用户',
  'user.disable': '停用账号',
  'user.enable': '启用账号',
  'user.batchImport': '批量导入用户',
  'user.transferFiles': '移交用户文件',
  'dept.create': '新建部门',
  'dept.rename': '重命名部门',
  'dept.move': '移动部门',
  'dept.delete': '删除部门',
  'dept.order': '调整部门顺序',
  'dept.setManager': '设置部门负责人',

  'tenant.update': '修改租户信息',
  'tenant.resetLogo': '恢复默认标志',
  'tenant.resetBackground': '恢复默认登录背景',
  'tenant.settingChange': '修改系统开关',
  'tenant.dictChange': '修改字典项',
  'tenant.clientRelease': '修改客户端版本',

  // Issue 16: 公告管理. Reading and marking messages read are not actions.
  'notice.create': '新建公告',
  'notice.update': '修改公告',
  'notice.publish': '发布公告',
  'notice.pin': '置顶公告',
  'notice.withdraw': '撤回公告',
  'notice.delete': '删除公告',

  'audit.export': '导出操作日志',
  'audit.prune': '清理过期操作日志',
  'audit.checkpoint': '下载操作日志校验点',

  // Issue 38: 统计报表.
  'report.export': '导出统计报表',

  // Sharing (issue 15).
  'share.create': '共享给他人',
  'share.update': '修改共享',
  'share.revoke': '取消共享',
  'link.create': '创建分享链接',
  'link.update': '修改分享链接',
  'link.revoke': '取消分享链接',
  'link.open': '打开分享链接',
  'link.codeFailed': '提取码错误',
  'link.preview': '预览分享链接中的文件',
  'link.download': '通过分享链接下载',
  'link.save': '保存分享链接中的文件',
  'apply.submit': '提交分享申请',
  'apply.approve': '通过分享申请',
  'apply.reject': '驳回分享申请',
  'apply.withdraw': '撤回分享申请',
  'apply.expire': '分享申请已过期',
  'apply.preview': '审批时预览申请的文件',
  'tenant.sharePolicy': '修改文件安全策略',
  'exchange.check': '交换区检查',
  'exchange.safeCheck': '文件安全检查',
  'exchange.process': '处理被拦截的文件',
  'exchange.confirmDownload': '确认下载被拦截的文件',

  // A read refused: an id not found (another tenant's, deleted, never issued), AUTH-1005, a bad Origin…
  'access.denied': '访问被拒绝',
} as const;

export type ActionCode = keyof typeof ACTIONS;

export const ACTION_CODES = Object.keys(ACTIONS) as ActionCode[];

export function isActionCode(value: string): value is ActionCode {
  return Object.prototype.hasOwnProperty.call(ACTIONS, value);
}

export function actionArea(code: ActionCode): ActionArea {
  return code.slice(0, code.indexOf('.')) as ActionArea;
}

export function actionLabel(code: string): string {
  return isActionCode(code) ? ACTIONS[code] : code;
}

/** ok: done; refused: not done, with the error code the caller got. */
export type ActionOutcome = 'ok' | 'refused';
export const ACTION_OUTCOMES: Record<ActionOutcome, string> = { ok: '成功', refused: '被拒绝' };

/** What an action was done to, with its name at that time. */
export type ActionTargetType =
  | 'file'
  | 'folder'
  | 'version'
  | 'user'
  | 'group'
  | 'department'
  | 'tenant'
  | 'setting'
  | 'log'
  | 'share'
  | 'link'
  | 'application'
  | 'notice'
  | 'report'
  | 'devicePassword';

export interface ActionTarget {
  type: ActionTargetType;
  id: string;
  /** The name when the action happened ('' when unknown, e.g. an id that does not exist). */
  name: string;
}

export const TARGET_TYPE_LABELS: Record<ActionTargetType, string> = {
  file: '文件',
  folder: '文件夹',
  version: '版本',
  user: '用户',
  group: '群组',
  department: '部门',
  tenant: '租户',
  setting: '设置',
  log: '日志',
  share: '共享',
  link: '分享链接',
  application: '分享申请',
  notice: '公告',
  report: '报表',
  devicePassword: '设备密码',
};
