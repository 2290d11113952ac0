/** Every API path used by client and server. Paths of spec §7 are kept letter for letter. */
export const API = {
  // config and menu
  systemConfig: '/api/v2/defaultConfig/system/get',
  tenantConfig: '/api/v2/defaultConfig/tenant/get',
  menu: '/api/menu/get',
  pagePermissions: '/api/menu/pagePermissions',
  homeUrl: '/api/menu/get/homeUrl',
  /** Public: `GET ?clientType=3|4` → ClientVersion, the desktop client's update check (spec §1). */
  clientVersion: '/api/clientVersion/get',

  // login (form-encoded POST for login)
  login: '/spacex/login?ajax=true',
  loginPath: '/spacex/login',
  logout: '/spacex/logout',
  captcha: '/api/captcha/generateBase64',
  /**
   * `GET ?captchaId=&captchaCode=` (CaptchaValidateQuery) → `{data: true}` or CAPTCHA_INVALID. A wrong
   * answer uses the captcha up; a right one leaves it usable once more (by login or SMS send).
   */
  captchaValidate: '/spacex/captcha/validate',
  /**
   * `GET ?phone=&purpose=&captchaId=&captchaCode=` (SmsSendQuery) → SmsSendResult. It changes state, so
   * like keepOnUpload it requires the X-Client-Platform header (no cross-site GET can add it).
   */
  smsSend: '/api/captcha/sms/send',
  /** SMS login: `POST {phone, code}` (SmsLoginRequest) → LoginResult and the session cookie. */
  smsValidate: '/api/captcha/smsCode/validate',

  // users
  userDetails: '/api/user/details/search',
  /**
   * Admin only (user management): `POST {keyword?}` (UserSearchRequest) → UserSummary[] of the caller's
   * tenant, at most USER_SEARCH_LIMIT, ordered by account. Gives admins the ids the calls below take.
   */
  userSearch: '/api/user/search',
  /** `POST {}` → null: records that the caller accepted the user agreement (UserDetails.agreementRead). */
  readAgreement: '/api/user/readAgreement',
  /** `POST {value, type: 4, oldPassword}` (UserInfoModifyRequest), both AES-encrypted (§9). */
  userInfoModify: '/api/user/info/modify',
  /** `POST {phone, code}` (PhoneValidateRequest): binds the phone after an SMS sent with purpose bindPhone. */
  phoneValidate: '/api/user/phone/validate',
  /** Admin only: `POST {userId, roles}` (SetRolesRequest). */
  setRoles: '/api/v2/user/setRoles',
  /** `GET ?userId=` → UserRoles; without userId the caller's own; another user's needs an admin. */
  getRoles: '/api/v2/user/getRoles',
  /** Admin only: `POST {userId}` (AccountLockRequest). */
  accountLock: '/api/v2/account/lock',
  accountUnlock: '/api/v2/account/unlock',
  /** Admin only: `POST {userId, enabled}` (OuterLoginSetRequest). */
  outerLoginSet: '/api/user/outerLogin/set',

  // files. mkdir, rename, copy, move, removeFiles, favoriteAdd/Remove, createTxt and keepOnCreateTxt
  // also take an X-Client-Op-Id header (HEADER_CLIENT_OP_ID in client-env.ts): applied once per user.
  fileList: '/api/file/list',
  fileCatalog: '/api/file/fileCatalog',
  mkdir: '/api/file/mkdir',
  rename: '/api/file/rename',
  /** Ours (not in the spec): `GET /api/file/download/:id`, honours Range. */
  downloadPrefix: '/api/file/download/',

  // file operations of spec §7 (POST + JSON unless said otherwise; payloads in types.ts)
  /** Entries by id, in one call (FileMultiListRequest): refreshes selected rows after a batch action. */
  fileMultiList: '/api/file/multi/list',
  /** The 共享文件 page: category 2 (shared files), same request/answer as fileList. */
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
  /**
   * `GET /api/file/zip?ids=a,b,c&name=archive` → a streamed ZIP (deflated text, stored media, UTF-8 names, ZIP64
   * when needed) of the files and folder trees; capped by ZIP_MAX_ENTRIES / ZIP_MAX_BYTES.
   */
  zipDownload: '/api/file/zip',
  /**
   * `GET /api/file/preview/:id`: inline with its type for the safe-inline kinds (PREVIEW_INLINE_TYPES),
   * Range honoured; anything else is an attachment. Always `nosniff` and `Content-Security-Policy: sandbox`.
   */
  previewPrefix: '/api/file/preview/',
  /** `GET /api/file/thumbnail/:id`: a server-made WebP of at most THUMBNAIL_SIZE px for pictures. */
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

  // transfer protocol
  /** Ours: the chunk size and limits the server announces; fetched before hashing. */
  uploadConfig: '/api/v2/file/upload/config',
  chunkExist: '/api/v2/file/chunk/exist',
  /** Ours: `POST /api/v2/file/chunk/upload?uploadId=..&index=..`, raw bytes body. */
  chunkUpload: '/api/v2/file/chunk/upload',
  /** Ours: completes an upload once every chunk is stored. */
  chunkMerge: '/api/v2/file/chunk/merge',
  /** Instant upload with proof of ownership: see common/transfer/second-upload.ts. */
  secondUpload: '/api/v2/file/second/upload',

  // pre-upload checks and held items (common/transfer/checks.ts). The spec names these without their
  // full paths; ours put them under /api/v2/file/ like their siblings.
  canBeUploadType: '/api/uploadType/canBeUploadType',
  checkFileSensitiveOrLock: '/api/v2/file/checkFileSensitiveOrLock',
  fileVersionCheck: '/api/v2/file/fileVersion/check',
  multipleFileCheck: '/api/v2/file/multipleFile/check',
  relativePathDirCreate: '/api/v2/file/relativePath/dir/create',
  /**
   * GET, as the spec says. They change state, so the server requires the client's platform header on
   * them: a cross-site page cannot add a custom header without a CORS preflight, which is refused.
   */
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
  /** Spec §7, admin only, form-encoded: `syncTime` = minutes between the desktop's full sync passes (TenantConfig.syncTime). */
  syncTimeModify: '/api/v2/defaultConfig/modify/syncTime',

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

export function thumbnailUrl(fileId: string): string {
  return API.thumbnailPrefix + encodeURIComponent(fileId);
}

/** The streamed ZIP of these entries; `name` (without .zip) names the archive. */
export function zipDownloadUrl(ids: readonly string[], name?: string): string {
  const q = `ids=${encodeURIComponent(ids.join(','))}`;
  return `${API.zipDownload}?${q}${name ? `&name=${encodeURIComponent(name)}` : ''}`;
}
