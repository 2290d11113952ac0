/** Spec §2 routes under /main: pages (with a title) and the defaults of the parent paths. */
export const MAIN_PAGES: Record<string, string> = {
  '/main/file/personal': '个人文件',
  '/main/file/backups': '同步文件',
  '/main/file/favorite': '收藏',
  '/main/file/other': '交换区',
  '/main/file/recycle': '回收站',
  '/main/file/publicSpace': '公共空间',
  '/main/file/share': '共享文件',
  '/main/file/search': '搜索',
  '/main/file/unifiedSearch': '统一搜索',
  '/main/safe/myShare': '我的分享',
  '/main/safe/myApply': '我的申请',
  '/main/safe/dealApply': '审批申请',
  '/main/group': '群组空间',
  '/main/system/department': '部门管理',
  '/main/system/fileSecurity': '文件安全',
  '/main/system/notice': '公告管理',
  '/main/system/reportForm': '统计报表',
  '/main/system/desk': '工作台',
  '/main/system/systemConfig': '系统配置',
  '/main/system/actionLog': '操作日志',
  '/main/system/user/list': '用户列表',
  '/main/system/user/add': '新增用户',
  '/main/system/user/batchAdd': '批量新增用户',
  '/main/system/user/edit': '编辑用户',
  '/main/notice/fileNotice': '文件消息',
  '/main/notice/systemNotice': '系统消息',
  '/main/user/userInfo': '基本信息',
  '/main/user/accountSafe': '账号安全',
  '/main/addressList': '通讯录',
};

export const MAIN_DEFAULTS: Record<string, string> = {
  '/main': '/main/file/personal',
  '/main/file': '/main/file/personal',
  '/main/safe': '/main/safe/myApply',
  '/main/system': '/main/system/desk',
  '/main/system/user': '/main/system/user/list',
  '/main/notice': '/main/notice/fileNotice',
  '/main/user': '/main/user/userInfo',
};

/** Top-level spec §2 pages not built yet. */
export const STANDALONE_PAGES: Record<string, string> = {};

/** Top-level spec §2 pages built as their own routes (AppRoutes). */
export const BUILT_STANDALONE_PAGES: Record<string, string> = {
  /** The share link's page for phones (/downLoadM/<token>). */
  '/downLoadM': '移动端下载',
};

/** Share-link pages: they exist only when the home page is the personal files page (spec §2). */
export const SHARE_LINK_PAGES: Record<string, string> = {
  '/openShareLink': '打开分享链接',
  '/shareLink': '分享链接',
};
