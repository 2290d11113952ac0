/** Every API path used by client and server. Paths of spec §7 are kept letter for letter. */
export const API = {
  // config and menu
  systemConfig: '/api/v2/defaultConfig/system/get',
  tenantConfig: '/api/v2/defaultConfig/tenant/get',
  menu: '/api/menu/get',
  pagePermissions: '/api/menu/pagePermissions',
  homeUrl: '/api/menu/get/homeUrl',

  // login (form-encoded POST for login)
  login: '/spacex/login?ajax=true',
  loginPath: '/spacex/login',
  logout: '/spacex/logout',
  captcha: '/api/captcha/generateBase64',

  // users
  userDetails: '/api/user/details/search',

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
  secondUpload: '/api/v2/file/second/upload',
} as const;

export function downloadUrl(fileId: string): string {
  return API.downloadPrefix + encodeURIComponent(fileId);
}
