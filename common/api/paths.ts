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

  // files
  fileList: '/api/file/list',
  fileCatalog: '/api/file/fileCatalog',
  mkdir: '/api/file/mkdir',
  rename: '/api/file/rename',
  /** Ours (not in the spec): `GET /api/file/download/:id`, honours Range. */
  downloadPrefix: '/api/file/download/',

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
