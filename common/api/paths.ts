/** Every API path used by client and server. Paths of spec §7 are kept letter for letter. */
export const API = {
  // config and menu (declared in endpoints/config.ts)
  systemConfig: '/api/v2/defaultConfig/system/get',
  /** Ours: the tenant's logo, the URL SystemConfig.logo gives. */
  logo: '/api/v2/defaultConfig/logo',
  tenantConfig: '/api/v2/defaultConfig/tenant/get',
  menu: '/api/menu/get',
  pagePermissions: '/api/menu/pagePermissions',
  homeUrl: '/api/menu/get/homeUrl',
  clientVersion: '/api/clientVersion/get',
  /** Ours (endpoints/client-releases.ts): 客户端版本 in 系统配置, and the installer a release names. */
  clientReleaseList: '/api/v2/clientVersion/list',
  clientReleaseSave: '/api/v2/clientVersion/save',
  clientInstaller: '/api/v2/clientVersion/installer',

  // login (declared in endpoints/auth.ts)
  login: '/spacex/login?ajax=true',
  loginPath: '/spacex/login',
  logout: '/spacex/logout',
  captcha: '/api/captcha/generateBase64',
  captchaValidate: '/spacex/captcha/validate',
  smsSend: '/api/captcha/sms/send',
  smsValidate: '/api/captcha/smsCode/validate',
  passwordReset: '/api/user/password/reset',

  // users (declared in endpoints/account.ts)
  userDetails: '/api/user/details/search',
  userSearch: '/api/user/search',
  readAgreement: '/api/user/readAgreement',
  userInfoModify: '/api/user/info/modify',
  userProfileUpdate: '/api/user/profile/update',
  userAvatarPrefix: '/api/user/avatar/',
  phoneValidate: '/api/user/phone/validate',
  setRoles: '/api/v2/user/setRoles',
  getRoles: '/api/v2/user/getRoles',
  accountLock: '/api/v2/account/lock',
  accountUnlock: '/api/v2/account/unlock',
  outerLoginSet: '/api/user/outerLogin/set',
  accountSessions: '/api/v2/account/sessions',
  accountSessionEnd: '/api/v2/account/sessions/end',
  accountSessionEndOthers: '/api/v2/account/sessions/endOthers',
  /** 设备密码 for WebDAV clients (ours; declared in endpoints/device-passwords.ts). */
  devicePasswords: '/api/v2/account/devicePasswords',
  devicePasswordCreate: '/api/v2/account/devicePasswords/create',
  devicePasswordRevoke: '/api/v2/account/devicePasswords/revoke',
  /** 手势密码 (ours; declared in endpoints/gesture.ts). */
  gestureStatus: '/api/v2/account/gesture/status',
  gestureSet: '/api/v2/account/gesture/set',
  gestureClear: '/api/v2/account/gesture/clear',
  gestureVerify: '/api/v2/account/gesture/verify',
  gestureLock: '/api/v2/account/gesture/lock',

  // organisation (issue 14): payloads in org-types.ts. The three orgUser calls are spec §7's, for any
  // signed-in user; the others are ours and admin only.
  /** `GET` → OrgTree: the tenant's whole department tree, the caller's department and the phone rule. */
  orgTree: '/api/user/orgUser/listNowOrgUser',
  /** `GET ?departmentId=&includeSub=&keyword=&cursor=&pageSize=` (OrgUserListQuery) → OrgUserPage. */
  orgUserList: '/api/user/orgUser/list',
  /** `GET ?departmentId=` or `?groupId=`, `&cursor=&pageSize=` (OrgGroupUserListQuery) → OrgUserPage. */
  orgGroupUserList: '/api/user/orgUser/orgGroupUserList',
  departmentCreate: '/api/v2/department/create',
  departmentUpdate: '/api/v2/department/update',
  departmentMove: '/api/v2/department/move',
  departmentDelete: '/api/v2/department/delete',
  /** `POST {phoneMask}` (OrgSettingsRequest). */
  orgSettingsUpdate: '/api/v2/org/settings/update',
  /** `POST` UserListRequest → UserListResponse (keyset pages). */
  userList: '/api/v2/user/list',
  /** `GET ?id=` → UserRow. */
  userGet: '/api/v2/user/get',
  userAdd: '/api/v2/user/add',
  userEdit: '/api/v2/user/edit',
  userSetDepartment: '/api/v2/user/setDepartment',
  userDelete: '/api/v2/user/delete',
  userTransferFiles: '/api/v2/user/transferFiles',
  /** `GET ?format=xlsx|csv` → the import template (Chinese headers, IMPORT_COLUMNS). */
  userImportTemplate: '/api/v2/user/batch/template',
  /** `POST ?name=` raw file body → ImportPreview. */
  userImportPreview: '/api/v2/user/batch/preview',
  /** `POST {batchId, password}` (ImportCommitRequest) → ImportResult. */
  userImportCommit: '/api/v2/user/batch/import',
  /** `GET ?batchId=&format=xlsx|csv` → every row with its verdict (cells neutralised against formulas). */
  userImportResult: '/api/v2/user/batch/result',

  // files. mkdir, rename, copy, move, removeFiles, favoriteAdd/Remove, createTxt and keepOnCreateTxt
  // also take an X-Client-Op-Id header (HEADER_CLIENT_OP_ID in client-env.ts): applied once per user.
  fileList: '/api/file/list',
  fileCatalog: '/api/file/fileCatalog',
  mkdir: '/api/file/mkdir',
  rename: '/api/file/rename',
  /** Ours (not in the spec): `GET /api/file/download/:id`, honours Range (endpoints/downloads.ts). */
  downloadPrefix: '/api/file/download/',

  // file operations of spec §7 (POST + JSON unless said otherwise; payloads in types.ts)
  /** Entries by id, in one call (FileMultiListRequest): refreshes selected rows after a batch action. */
  fileMultiList: '/api/file/multi/list',
  /** The 共享文件 page (endpoints/shares.ts). */
  shareFileList: '/api/shareFile/list',
  /** Folder-picker tree for move/copy: one level of folders, loaded lazily by parent. */
  dirList: '/api/file/dir/list',
  copy: '/api/v2/file/copy',
  move: '/api/v2/file/move',
  /** Moves entries to the recycle bin (RemoveFilesRequest). */
  removeFiles: '/api/file/removeFiles',
  /** GET ?keyword=&category=&spaceId=&cursor=&pageSize= (KeywordSearchQuery). */
  keywordList: '/api/v2/file/keyword/list',
  createTxt: '/api/file/createTxt',
  /** The spec gives no prefix for keepOnCreateTxt; ours sits beside createTxt. */
  keepOnCreateTxt: '/api/file/keepOnCreateTxt',

  // ours (the spec does not show these); payloads documented in types.ts
  /** GET, same query as keywordList without category/spaceId: every space the caller may see. */
  unifiedSearch: '/api/v2/file/unified/search',
  recycleList: '/api/file/recycle/list',
  recycleRestore: '/api/file/recycle/restore',
  /** Deletes for good the given recycle-bin entries (or all of them with `all: true`). */
  recyclePurge: '/api/file/recycle/purge',
  favoriteAdd: '/api/file/favorite/add',
  favoriteRemove: '/api/file/favorite/remove',
  favoriteList: '/api/file/favorite/list',
  lock: '/api/file/lock',
  unlock: '/api/file/unlock',
  versionList: '/api/file/version/list',
  versionRestore: '/api/file/version/restore',
  /** `GET /api/file/version/download/:versionId`, honours Range like downloadPrefix. */
  versionDownloadPrefix: '/api/file/version/download/',
  /** `GET ?ids=a,b,c&name=archive` → a streamed ZIP (endpoints/downloads.ts). */
  zipDownload: '/api/file/zip',
  /** `GET /api/file/preview/:id[/:name]`: an inline rendition (endpoints/downloads.ts). */
  previewPrefix: '/api/file/preview/',
  /** `GET /api/file/thumbnail/:id`: a picture's WebP thumbnail (endpoints/downloads.ts). */
  thumbnailPrefix: '/api/file/thumbnail/',

  // group spaces (/main/group) and the public space; roles in common/files/space-roles.ts
  /** POST {} → SpaceInfo[]: the caller's group spaces (admins: every group of the tenant). */
  groupList: '/api/group/list',
  groupCreate: '/api/group/create',
  groupRename: '/api/group/rename',
  /** Only an empty group (nothing live, nothing in its recycle bin) can be deleted. */
  groupDelete: '/api/group/delete',
  groupMemberList: '/api/group/member/list',
  groupMemberAdd: '/api/group/member/add',
  groupMemberSetRole: '/api/group/member/setRole',
  groupMemberRemove: '/api/group/member/remove',
  /** POST {} → SpaceInfo of the tenant's public space (created on first use). */
  publicSpace: '/api/space/public/get',

  // tenant (spec §7; declared in endpoints/tenant.ts, answers in tenant.ts)
  tenantAlias: '/api/tenant/getAlias',
  tenantInfo: '/api/tenant/info/get',
  tenantList: '/api/tenant/list',
  tenantUpdate: '/api/tenant/update',
  tenantResetLogo: '/api/tenant/resetLogo',
  tenantResetBackground: '/api/tenant/BGImage/reset',
  /** Ours: the login background, the URL SystemConfig.loginBackground gives (endpoints/config.ts). */
  loginBackground: '/api/v2/defaultConfig/loginBackground',
  switchGesture: '/api/v2/sysSetting/gesture/switch',
  /** Ours, beside the gesture switch: minutes idle or hidden before the lock is asked (JSON `{ idleTime }`). */
  gestureIdleTime: '/api/v2/sysSetting/gesture/idleTime',
  switchKeyCreate: '/api/v2/sysSetting/keyCreate/switch',
  switchPublicDownload: '/api/v2/sysSetting/publicDownLoad/switch',
  switchExchange: '/api/v2/sysSetting/exchangeSwitch/switch',
  /** Ours (issue 39), a switch like the four above: WebDAV (/dav/) is offered to the tenant's users. */
  switchWebdav: '/api/v2/sysSetting/webdav/switch',
  modifySyncTime: '/api/v2/defaultConfig/modify/syncTime',

  // dictionaries and static data (spec §7; defaults in dictionaries.ts, payloads in tenant.ts)
  /** `POST {groups?}` (DictListRequest) → DictGroup[] (the tenant's version). */
  dictList: '/api/dict/list',
  /** `GET ?group=` → DictItem[] of one group (enabled and not). */
  dictQueryByGroup: '/api/dict/queryByGroup',
  /** `GET ?group=` (default `module-switch`) → DictGroup. */
  dictGroupGet: '/api/dict/group/get',
  /** Ours, admins: `POST` DictItemUpdateRequest → DictGroup. */
  dictItemUpdate: '/api/dict/item/update',
  /** The static data call of spec §7 (its path is ours): `POST {names}` (StaticDataRequest) → StaticData (enabled entries). */
  staticData: '/api/staticData/list',

  // action log (操作日志), ours; payloads in action-log.ts, codes in action-codes.ts. Admin only.
  /**
   * `POST {from?, to?, userId?, account?, departmentId?, actions?, fileName?, outcome?, cursor?, pageSize?}`
   * (ActionLogListRequest) → ActionLogListResponse: newest first, keyset pages; `scannedTo` when a
   * scan window ended before the page filled (go on with nextCursor).
   */
  actionLogList: '/api/actionLog/list',
  /**
   * `GET ?format=xlsx|csv&tzOffset=&` + the same filter (ActionLogExportQuery; `actions` comma-separated)
   * → the whole filtered set as a streamed attachment (formula-like cells neutralised). Recorded itself
   * (audit.export).
   */
  actionLogExport: '/api/actionLog/export',
  /**
   * `GET [?tenantId=]` → a signed checkpoint of the chain's head (ActionLogCheckpoint) as a JSON
   * attachment, to keep off the server for `audit:verify --checkpoint`. Recorded (audit.checkpoint).
   */
  actionLogCheckpoint: '/api/actionLog/checkpoint',

  // 工作台 and 统计报表 (issue 38), ours; payloads in reports.ts, declared in endpoints/reports.ts. Admin only.
  reportDesk: '/api/report/desk',
  reportGet: '/api/report/get',
  reportExport: '/api/report/export',

  // sharing (issue 15): payloads and rules in sharing.ts. Every entry id is checked against the caller's
  // tenant and what they may see (unknown → 404); share, link and application ids against the caller.
  /** Shares, links, applications, file security: declared in endpoints/shares.ts, links.ts, applications.ts. */
  shareCreate: '/api/v2/share/create',
  shareUpdate: '/api/v2/share/update',
  shareRevoke: '/api/v2/share/revoke',
  shareMine: '/api/v2/share/mine',
  shareCheck: '/api/v2/share/check',
  linkCreate: '/api/v2/shareLink/create',
  linkUpdate: '/api/v2/shareLink/update',
  linkRevoke: '/api/v2/shareLink/revoke',
  linkMine: '/api/v2/shareLink/mine',
  linkSummary: '/api/v2/shareLink/summary',
  linkOpen: '/api/v2/shareLink/open',
  linkList: '/api/v2/shareLink/list',
  linkDownload: '/api/v2/shareLink/download',
  /** Visitor: `GET|HEAD /api/v2/shareLink/file/<ticket>` → the bytes (attachment, Range; endpoints/links.ts). */
  linkFilePrefix: '/api/v2/shareLink/file/',
  linkPreviewPrefix: '/api/v2/shareLink/preview/',
  linkThumbnailPrefix: '/api/v2/shareLink/thumbnail/',
  linkSave: '/api/v2/shareLink/save',
  applySubmit: '/api/v2/shareApply/submit',
  applyMine: '/api/v2/shareApply/mine',
  applyTodo: '/api/v2/shareApply/todo',
  applyGet: '/api/v2/shareApply/get',
  applyApprove: '/api/v2/shareApply/approve',
  applyReject: '/api/v2/shareApply/reject',
  applyWithdraw: '/api/v2/shareApply/withdraw',
  applyTodoCount: '/api/v2/shareApply/todoCount',
  applyPreviewPrefix: '/api/v2/shareApply/preview/',
  fileSecurityGet: '/api/v2/fileSecurity/get',
  fileSecurityUpdate: '/api/v2/fileSecurity/update',
  /** Exchange area (spec §7; declared in endpoints/exchange.ts). */
  checkSwap: '/api/v2/file/checkSwap',
  fileSafeCheck: '/api/v2/file/fileSafe/check',
  processedList: '/api/v2/file/processed/list',
  keepOnDownload: '/api/v2/file/keepOnDownload',
  canOperationForShare: '/api/v2/onlyoffice/canoperationforshare',
  // notices (issue 16): declared in endpoints/notices.ts; the meaning of the counts in notices.ts.
  noticeUnreadCount: '/api/v2/notice/unread/count',
  sysMsgUnreadNum: '/api/sysMsg/userUnReadNum',
  fileMsgList: '/api/fileMsg/list',
  fileMsgSearch: '/api/fileMsg/search',
  fileMsgMarkRead: '/api/v2/fileMessage/markRead',
  fileMsgDelete: '/api/v2/fileMessage/delete',
  fileMsgMarkAllRead: '/api/fileMsg/markAllRead',
  fileMsgUnreadNum: '/api/fileMsg/userUnReadNum',
  noticeStream: '/api/v2/notice/stream',
  // system notices (ours, readers) and 公告管理 (ours, admins): declared in endpoints/notices.ts.
  sysMsgList: '/api/sysMsg/list',
  sysMsgGet: '/api/sysMsg/get',
  sysMsgMarkRead: '/api/sysMsg/markRead',
  sysMsgMarkAllRead: '/api/sysMsg/markAllRead',
  sysMsgPopup: '/api/sysMsg/popup',
  sysMsgPopupAck: '/api/sysMsg/popup/ack',
  noticeManageList: '/api/v2/notice/manage/list',
  noticeManageGet: '/api/v2/notice/manage/get',
  noticeManageSave: '/api/v2/notice/manage/save',
  noticeManagePin: '/api/v2/notice/manage/pin',
  noticeManageWithdraw: '/api/v2/notice/manage/withdraw',
  noticeManageDelete: '/api/v2/notice/manage/delete',
  noticeManageReaders: '/api/v2/notice/manage/readers',

  // upload protocol: declared in endpoints/uploads.ts
  uploadConfig: '/api/v2/file/upload/config',
  chunkExist: '/api/v2/file/chunk/exist',
  chunkUpload: '/api/v2/file/chunk/upload',
  chunkMerge: '/api/v2/file/chunk/merge',
  // second upload, pre-upload checks and held items: declared in endpoints/pre-upload.ts
  secondUpload: '/api/v2/file/second/upload',
  batchUpload: '/api/v2/file/batch/upload',

  canBeUploadType: '/api/uploadType/canBeUploadType',
  checkFileSensitiveOrLock: '/api/v2/file/checkFileSensitiveOrLock',
  fileVersionCheck: '/api/v2/file/fileVersion/check',
  multipleFileCheck: '/api/v2/file/multipleFile/check',
  relativePathDirCreate: '/api/v2/file/relativePath/dir/create',
  keepOnUpload: '/api/v2/file/keepOnUpload',
  giveUpUpload: '/api/v2/file/giveUpUpload',
  unProcessList: '/api/v2/file/unProcess/list',

  // desktop sync (issue 17); payloads in types.ts (SynContentRequest…), rules in common/sync/
  /**
   * Spec §7: `POST {rootId, token?}` (SynContentRequest) → SynContentResponse: the whole live subtree
   * of a folder in 同步文件 as one consistent snapshot (ids, parents, names, sizes, times, content
   * fingerprints, parents before children), or `unchanged: true` and no items when `token` (opaque:
   * a version of the subtree) is still current: an idle sync pass costs one small answer. The JSON is
   * written one item per line, so a client may parse it as it arrives.
   */
  syncContent: '/api/syn/content',
  /** Ours: `POST {items: [{key, name, size}]}` (SynCheckRequest) → the tenant's verdict per file (common/sync/policy.ts). */
  syncCheck: '/api/syn/check',
  /**
   * Ours: `POST {items: [{id, digest}]}` (SynRemoveRequest) → SynRemoveResponse: each entry goes to the
   * recycle bin only if its subtree still has the digest the client computed from its listing;
   * the others are listed in `changed` and left alone (another device changed them meanwhile).
   */
  syncRemove: '/api/syn/remove',

  /**
   * Test hook (only with DRIVE_TEST_HOOKS=1): `PUT` raw body → streamed to a temp file with a chunk's
   * durability (fsync), then deleted; answers {bytes}. The baseline a benchmark compares uploads to.
   */
  testRawSink: '/api/test/raw-sink',
  /**
   * Test hook (only with DRIVE_TEST_HOOKS=1, login required): `GET` → {chunkBytesReceived}: every byte
   * read from chunk upload bodies since the server started, kept or not (re-sent bytes, measured).
   */
  testStats: '/api/test/stats',
  /**
   * Test hook (only with DRIVE_TEST_HOOKS=1, login required): `POST` → one sweeper pass now, answering
   * what it removed (Sweeper.sweepOnce), for tests of a server in a child process.
   */
  testSweep: '/api/test/sweep',
} as const;

export function downloadUrl(fileId: string): string {
  return API.downloadPrefix + encodeURIComponent(fileId);
}

export function versionDownloadUrl(versionId: string): string {
  return API.versionDownloadPrefix + encodeURIComponent(versionId);
}

export function previewUrl(fileId: string): string {
  return API.previewPrefix + encodeURIComponent(fileId);
}

/** The preview with the file's name as the last path segment (the PDF viewer's title). */
export function namedPreviewUrl(fileId: string, name: string): string {
  return `${previewUrl(fileId)}/${encodeURIComponent(name)}`;
}

export function thumbnailUrl(fileId: string): string {
  return API.thumbnailPrefix + encodeURIComponent(fileId);
}

/** The export URL of a filtered action log (the browser downloads it itself). */
export function actionLogExportUrl(query: Record<string, string | number | undefined>): string {
  const q = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return `${API.actionLogExport}?${q.join('&')}`;
}

/** The export URL of a report (the browser downloads it itself). */
export function reportExportUrl(query: Record<string, string | number | undefined>): string {
  const q = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return `${API.reportExport}?${q.join('&')}`;
}

/** The streamed ZIP of these entries; `name` (without .zip) names the archive. */
export function zipDownloadUrl(ids: readonly string[], name?: string): string {
  const q = `ids=${encodeURIComponent(ids.join(','))}`;
  return `${API.zipDownload}?${q}${name ? `&name=${encodeURIComponent(name)}` : ''}`;
}

export function linkPreviewUrl(fileId: string, visit: string): string {
  return `${API.linkPreviewPrefix}${encodeURIComponent(fileId)}?v=${encodeURIComponent(visit)}`;
}

/** An approver's view of a file of an application waiting for them (common/api/byte-access.ts: approval). */
export function applicationPreviewUrl(fileId: string, applicationId: string): string {
  return `${API.applyPreviewPrefix}${encodeURIComponent(fileId)}?app=${encodeURIComponent(applicationId)}`;
}

export function linkThumbnailUrl(fileId: string, visit: string): string {
  return `${API.linkThumbnailPrefix}${encodeURIComponent(fileId)}?v=${encodeURIComponent(visit)}`;
}
