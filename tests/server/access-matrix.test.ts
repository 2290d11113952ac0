import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_PLATFORM } from '../../common/api/client-env';
import { CONFIG } from '../../common/api/endpoints/config';
import { DOCUMENTS } from '../../common/api/endpoints/documents';
import { ERRORS } from '../../common/api/errors';
import { API, downloadUrl, namedPreviewUrl, previewUrl, thumbnailUrl, versionDownloadUrl, zipDownloadUrl } from '../../common/api/paths';
import type { CreateTxtResponse, FileEntry, GroupMemberListResponse, ManagedNotice, SearchResponse, SpaceInfo, VersionListResponse } from '../../common/api/types';
import { encryptPassword } from '../../common/crypto/password-cipher';
import type { BatchUploadResponse } from '../../common/transfer/batch-upload';
import type { LinkInfo, ShareApplication, ShareCreateResponse } from '../../common/api/sharing';
import { createGroup, mkdir, text } from './file-kit';
import { createDepartment, orgTree, previewSheet, userBody } from './org-kit';
import {
  addTenantWithUser,
  addUser,
  Client,
  describeFile,
  liftPasswordGate,
  loggedInClient,
  login,
  MEMBER,
  postChunkExist,
  randomContent,
  startServer,
  uploadFile,
  userIdOf,
  withDb,
  type Answer,
  type TestServer,
} from './helpers';
import { chunkDigestHex } from '../support/chunk-digest';
import { byteFixture, fileOf, grantBytes, judge, LINK_GRANTS, LINK_ROUTES, SESSION_GRANTS, SESSION_ROUTES, type LinkGrant, type SessionGrant } from './byte-matrix-kit';

/**
 * The access matrix over EVERY API route the server registers (app.apiRoutes, collected by an onRoute
 * hook). Each route must be classified below; a route added later without a row fails the first test.
 *
 * - anonymous: 401 UNAUTHORIZED, except `public` routes;
 * - a member whose initial password is not changed: PASSWORD_CHANGE_REQUIRED, except `duringChange`;
 * - member: FORBIDDEN on `admin` routes, through the guard elsewhere;
 * - admin: through the guard everywhere;
 * - an admin of another tenant using the first tenant's ids: 404, exactly as for ids that never
 *   existed (`foreign`, one call or several: each id a route takes, and mixes with that admin's own
 *   ids), or `foreign: 'none'` when the route takes no object id. Ids that are keyed per user rather
 *   than per tenant object (upload ids, createTxt holds) answer their own not-found code instead of
 *   404, because the client reacts to that code (`foreignCode`) — still exactly like unknown ones.
 *
 * "Through the guard" means the answer is neither 401, nor FORBIDDEN, nor a password gate: requests
 * here carry harmless, often bogus, arguments, so a 400 from validation or a 404 still counts.
 */
type Access = 'public' | 'user' | 'admin';

/** Ids of the first tenant (the second tenant's admin must not reach them). */
interface Ids {
  folderId: string;
  fileId: string;
  uploadId: string;
  memberId: string;
  groupId: string;
  /** A file in the group space. */
  groupFileId: string;
  /** A file of the admin's in the recycle bin. */
  trashedId: string;
  /** A file with one earlier version, and that version's id. */
  versionedId: string;
  versionId: string;
  /** A createTxt hold still waiting for its decision. */
  holdId: string;
  /** The tenant itself (tenant calls name it for platform admins). */
  tenantId: string;
  /** A department, and a batch-import preview. */
  departmentId: string;
  batchId: string;
  /** Sharing (issue 15): a share and a link of the admin's, an application of the admin's. */
  shareId: string;
  linkId: string;
  applicationId: string;
  /** A published system notice, and a file message of the member's. */
  noticeId: string;
  messageId: string;
  /** A signed-in device (session public id) of the admin's. */
  sessionId: string;
  /** A 设备密码 of the admin's. */
  devicePasswordId: string;
  /** A documents job (issue 41) of the tenant's: its content's id. */
  jobId: string;
}

/** The second tenant admin's own ids, mixed with the first tenant's in some foreign calls. */
interface Own {
  folderId: string;
  fileId: string;
  groupId: string;
  departmentId: string;
  /** The second tenant's admin. */
  userId: string;
}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Row {
  access: Access;
  /** Reachable while the initial/expired password must still be changed. */
  duringChange?: boolean;
  /** The call made by anonymous, member and admin. */
  call: Call;
  /** The same kind of call(s) by another tenant's admin with this tenant's ids, or 'none'. */
  foreign: ((ids: Ids, own: Own) => Call | Call[]) | 'none';
  /** The error code those calls answer when it is not a 404 (ids keyed per user; see above). */
  foreignCode?: string;
  /**
   * A call that by design leaves out ids the caller cannot see instead of failing (multi/list refreshes
   * rows after a batch that may have removed some; favorite/remove only drops the caller's own rows):
   * another tenant's ids are left out too, so the answer is 200 with none of them, like unknown ids.
   */
  filtersIds?: true;
  /** The call ends the session it is made with (logout): run with a throwaway session. */
  endsSession?: boolean;
  /**
   * A batch that answers each item on its own (batch/upload): another tenant's ids make every item
   * refused with NOT_FOUND inside a 200, exactly like unknown ids.
   */
  refusesPerItem?: true;
  /**
   * Marks or removes the caller's own rows (messages read or deleted): ids the caller has no such row
   * for — another tenant's included — change nothing, and the answer is a 200 like for unknown ids
   * (an offline replay of a mark-read never fails).
   */
  ignoresIds?: true;
  /** An event stream: the answer is judged by its status and type, then the request is dropped. */
  stream?: true;
}

const BOGUS = 'no-such-id-0000';

/** A framed batch/upload body (common/transfer/batch-upload.ts): one 1-byte file into `parentId`. */
function batchBody(parentId: string | null): Uint8Array<ArrayBuffer> {
  const manifest = Buffer.from(JSON.stringify({ items: [{ clientKey: 'matrix-1', name: 'matrix.txt', parentId, category: 1, size: 1, digest: chunkDigestHex(Buffer.from('x')) }] }));
  const length = Buffer.alloc(4);
  length.writeUInt32BE(manifest.length, 0);
  return new Uint8Array(Buffer.concat([length, manifest, Buffer.from('x')]));
}
const platform = { [HEADER_PLATFORM]: 'web' };
/** A notice to save (公告管理), to the given audience. */
const noticeBody = (audience: { all?: boolean; departmentIds?: string[]; userIds?: string[] }) => ({
  title: '矩阵公告',
  content: '<p>内容</p>',
  audience: { all: false, departmentIds: [], userIds: [], ...audience },
  important: false,
  pinned: false,
  publish: 'now',
});
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const ONE_BYTE = describeFile(Buffer.from('x'));
const chunkOpen = (parentId: string | null) => ({
  fingerprint: ONE_BYTE.fingerprint,
  size: 1,
  chunkSize: 4 * 1024 * 1024,
  chunkDigests: ONE_BYTE.chunkDigests,
  name: 'matrix.bin',
  parentId,
  category: 1,
});

const MATRIX: Record<string, Row> = {
  'GET /api/v2/defaultConfig/system/get': { access: 'public', call: { method: 'GET', path: API.systemConfig }, foreign: 'none' },
  'GET /api/v2/defaultConfig/logo': { access: 'public', call: { method: 'GET', path: '/api/v2/defaultConfig/logo' }, foreign: 'none' },
  'GET /api/clientVersion/get': { access: 'public', call: { method: 'GET', path: `${API.clientVersion}?clientType=3` }, foreign: 'none' },
  // 客户端版本: the caller's tenant's releases; a file of another tenant is never an installer (404).
  'GET /api/v2/clientVersion/list': { access: 'admin', call: { method: 'GET', path: API.clientReleaseList }, foreign: 'none' },
  'GET /api/v2/documents/status': { access: 'admin', call: { method: 'GET', path: DOCUMENTS.status.path }, foreign: 'none' },
  'POST /api/v2/documents/retry': {
    access: 'admin',
    call: { method: 'POST', path: DOCUMENTS.retry.path, body: { jobIds: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: DOCUMENTS.retry.path, body: { jobIds: [ids.jobId] } }),
  },
  'POST /api/v2/clientVersion/save': {
    access: 'admin',
    call: { method: 'POST', path: API.clientReleaseSave, body: { clientType: 3, versionName: '1.0.0', versionDesc: '', isForce: false, fileId: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.clientReleaseSave, body: { clientType: 3, versionName: '1.0.0', versionDesc: '', isForce: false, fileId: ids.fileId } }),
  },
  // Public like the version check; it serves only the file a release names (none here: 404).
  'GET /api/v2/clientVersion/installer': { access: 'public', call: { method: 'GET', path: `${API.clientInstaller}?clientType=4&t=${BOGUS}` }, foreign: 'none' },
  'GET /api/health': { access: 'public', call: { method: 'GET', path: CONFIG.health.path }, foreign: 'none' },
  'GET /api/captcha/generateBase64': { access: 'public', call: { method: 'GET', path: API.captcha }, foreign: 'none' },
  'POST /spacex/login': { access: 'public', call: { method: 'POST', path: API.login, body: '', headers: form }, foreign: 'none' },
  'GET /spacex/captcha/validate': {
    access: 'public',
    call: { method: 'GET', path: `${API.captchaValidate}?captchaId=${BOGUS}&captchaCode=abcd` },
    foreign: 'none',
  },
  'GET /api/captcha/sms/send': {
    access: 'public',
    call: { method: 'GET', path: `${API.smsSend}?phone=13800000000&purpose=login&captchaId=${BOGUS}&captchaCode=abcd`, headers: platform },
    foreign: 'none',
  },
  'POST /api/captcha/smsCode/validate': {
    access: 'public',
    call: { method: 'POST', path: API.smsValidate, body: { phone: '13800000000', code: '000000' } },
    foreign: 'none',
  },
  'POST /api/user/password/reset': {
    access: 'public',
    call: { method: 'POST', path: API.passwordReset, body: { phone: '13800000000', code: '000000', value: 'x' } },
    foreign: 'none',
  },
  'POST /spacex/logout': { access: 'public', call: { method: 'POST', path: API.logout, body: {} }, foreign: 'none', endsSession: true },

  'GET /api/v2/defaultConfig/tenant/get': { access: 'user', duringChange: true, call: { method: 'GET', path: API.tenantConfig }, foreign: 'none' },
  'GET /api/menu/get': { access: 'user', duringChange: true, call: { method: 'GET', path: API.menu }, foreign: 'none' },
  'GET /api/menu/get/homeUrl': { access: 'user', duringChange: true, call: { method: 'GET', path: API.homeUrl }, foreign: 'none' },
  'POST /api/user/details/search': { access: 'user', duringChange: true, call: { method: 'POST', path: API.userDetails, body: {} }, foreign: 'none' },
  'POST /api/user/profile/update': { access: 'user', call: { method: 'POST', path: API.userProfileUpdate, body: { nickName: '管理员' } }, foreign: 'none' },
  // Another tenant's avatar answers 404: tests/server/user-profile.test.ts (no avatar among the ids here).
  'GET /api/user/avatar/:key': { access: 'user', call: { method: 'GET', path: `${API.userAvatarPrefix}${BOGUS}` }, foreign: 'none' },
  'POST /api/user/readAgreement': { access: 'user', duringChange: true, call: { method: 'POST', path: API.readAgreement, body: {} }, foreign: 'none' },
  'POST /api/user/info/modify': {
    access: 'user',
    duringChange: true,
    // The caller's own account only: there is no id to point elsewhere.
    call: { method: 'POST', path: API.userInfoModify, body: { value: encryptPassword('x'), type: 4, oldPassword: encryptPassword('x') } },
    foreign: 'none',
  },
  'GET /api/menu/pagePermissions': { access: 'user', call: { method: 'GET', path: API.pagePermissions }, foreign: 'none' },
  'POST /api/user/phone/validate': {
    access: 'user',
    call: { method: 'POST', path: API.phoneValidate, body: { phone: '13800000000', code: '000000', password: encryptPassword('x') } },
    foreign: 'none',
  },
  // 账号安全's devices (issue 44): only the caller's own sessions; another tenant's (or user's) → 404.
  'GET /api/v2/account/sessions': { access: 'user', call: { method: 'GET', path: API.accountSessions }, foreign: 'none' },
  'POST /api/v2/account/sessions/end': {
    access: 'user',
    call: { method: 'POST', path: API.accountSessionEnd, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.accountSessionEnd, body: { id: ids.sessionId } }),
  },
  // Ends the caller's other sessions: the admin's and member's clients here keep theirs.
  'POST /api/v2/account/sessions/endOthers': { access: 'user', call: { method: 'POST', path: API.accountSessionEndOthers, body: {} }, foreign: 'none' },
  // 设备密码 (issue 39): only the caller's own; another tenant's (or user's) id → 404.
  'GET /api/v2/account/devicePasswords': { access: 'user', call: { method: 'GET', path: API.devicePasswords }, foreign: 'none' },
  'POST /api/v2/account/devicePasswords/create': { access: 'user', call: { method: 'POST', path: API.devicePasswordCreate, body: { name: '' } }, foreign: 'none' },
  'POST /api/v2/account/devicePasswords/revoke': {
    access: 'user',
    call: { method: 'POST', path: API.devicePasswordRevoke, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.devicePasswordRevoke, body: { id: ids.devicePasswordId } }),
  },
  // 手势密码 (issue 38): the caller's own pattern only, no id to name (bogus patterns count no try: the switch is off here).
  'GET /api/v2/account/gesture/status': { access: 'user', call: { method: 'GET', path: API.gestureStatus }, foreign: 'none' },
  'POST /api/v2/account/gesture/set': { access: 'user', call: { method: 'POST', path: API.gestureSet, body: { pattern: [0] } }, foreign: 'none' },
  'POST /api/v2/account/gesture/clear': { access: 'user', call: { method: 'POST', path: API.gestureClear, body: {} }, foreign: 'none' },
  'POST /api/v2/account/gesture/lock': { access: 'user', call: { method: 'POST', path: API.gestureLock, body: {} }, foreign: 'none' },
  'POST /api/v2/account/gesture/verify': { access: 'user', call: { method: 'POST', path: API.gestureVerify, body: { pattern: [0] } }, foreign: 'none' },
  'GET /api/v2/user/getRoles': {
    access: 'user',
    call: { method: 'GET', path: API.getRoles },
    foreign: (ids) => ({ method: 'GET', path: `${API.getRoles}?userId=${ids.memberId}` }),
  },
  // Tenant-scoped by the caller's session; takes no id (the tenant-isolation test below checks its rows).
  'POST /api/user/search': { access: 'admin', call: { method: 'POST', path: API.userSearch, body: {} }, foreign: 'none' },
  'POST /api/v2/user/setRoles': {
    access: 'admin',
    call: { method: 'POST', path: API.setRoles, body: { userId: BOGUS, roles: ['member'] } },
    foreign: (ids) => ({ method: 'POST', path: API.setRoles, body: { userId: ids.memberId, roles: ['admin'] } }),
  },
  'POST /api/v2/account/lock': {
    access: 'admin',
    call: { method: 'POST', path: API.accountLock, body: { userId: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.accountLock, body: { userId: ids.memberId } }),
  },
  'POST /api/v2/account/unlock': {
    access: 'admin',
    call: { method: 'POST', path: API.accountUnlock, body: { userId: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.accountUnlock, body: { userId: ids.memberId } }),
  },
  'POST /api/user/outerLogin/set': {
    access: 'admin',
    call: { method: 'POST', path: API.outerLoginSet, body: { userId: BOGUS, enabled: true } },
    foreign: (ids) => ({ method: 'POST', path: API.outerLoginSet, body: { userId: ids.memberId, enabled: false } }),
  },

  // Organisation (issue 14): the address list for everyone, departments and people for admins.
  'GET /api/user/orgUser/listNowOrgUser': { access: 'user', call: { method: 'GET', path: API.orgTree }, foreign: 'none' },
  'GET /api/user/orgUser/list': {
    access: 'user',
    call: { method: 'GET', path: `${API.orgUserList}?keyword=a` },
    foreign: (ids) => ({ method: 'GET', path: `${API.orgUserList}?departmentId=${ids.departmentId}` }),
  },
  'GET /api/user/orgUser/orgGroupUserList': {
    access: 'user',
    call: { method: 'GET', path: `${API.orgGroupUserList}?departmentId=${BOGUS}` },
    foreign: (ids) => [
      { method: 'GET', path: `${API.orgGroupUserList}?departmentId=${ids.departmentId}` },
      { method: 'GET', path: `${API.orgGroupUserList}?groupId=${ids.groupId}` },
    ],
  },
  'POST /api/v2/department/create': {
    access: 'admin',
    call: { method: 'POST', path: API.departmentCreate, body: { parentId: BOGUS, name: 'm' } },
    foreign: (ids) => ({ method: 'POST', path: API.departmentCreate, body: { parentId: ids.departmentId, name: 'intruder' } }),
  },
  'POST /api/v2/department/update': {
    access: 'admin',
    call: { method: 'POST', path: API.departmentUpdate, body: { id: BOGUS, name: 'm' } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.departmentUpdate, body: { id: ids.departmentId, name: 'stolen' } },
      { method: 'POST', path: API.departmentUpdate, body: { id: own.departmentId, managerId: ids.memberId } },
    ],
  },
  'POST /api/v2/department/move': {
    access: 'admin',
    call: { method: 'POST', path: API.departmentMove, body: { id: BOGUS, parentId: null } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.departmentMove, body: { id: ids.departmentId, parentId: null } },
      { method: 'POST', path: API.departmentMove, body: { id: own.departmentId, parentId: ids.departmentId } },
      { method: 'POST', path: API.departmentMove, body: { id: own.departmentId, parentId: null, beforeId: ids.departmentId } },
    ],
  },
  'POST /api/v2/department/delete': {
    access: 'admin',
    call: { method: 'POST', path: API.departmentDelete, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.departmentDelete, body: { id: ids.departmentId } }),
  },
  'POST /api/v2/org/settings/update': { access: 'admin', call: { method: 'POST', path: API.orgSettingsUpdate, body: { phoneMask: 'middle' } }, foreign: 'none' },
  'POST /api/v2/user/list': {
    access: 'admin',
    call: { method: 'POST', path: API.userList, body: {} },
    foreign: (ids) => ({ method: 'POST', path: API.userList, body: { departmentId: ids.departmentId } }),
  },
  'GET /api/v2/user/get': {
    access: 'admin',
    call: { method: 'GET', path: `${API.userGet}?id=${BOGUS}` },
    foreign: (ids) => ({ method: 'GET', path: `${API.userGet}?id=${ids.memberId}` }),
  },
  'POST /api/v2/user/add': {
    access: 'admin',
    call: { method: 'POST', path: API.userAdd, body: userBody('matrix.user', BOGUS) },
    foreign: (ids) => ({ method: 'POST', path: API.userAdd, body: userBody('intruder', ids.departmentId) }),
  },
  'POST /api/v2/user/edit': {
    access: 'admin',
    call: { method: 'POST', path: API.userEdit, body: { id: BOGUS, ...userBody('matrix.user', BOGUS) } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.userEdit, body: { id: ids.memberId, ...userBody('member', own.departmentId) } },
      { method: 'POST', path: API.userEdit, body: { id: own.userId, ...userBody('other-admin', ids.departmentId, { role: 'admin' }) } },
    ],
  },
  'POST /api/v2/user/setDepartment': {
    access: 'admin',
    call: { method: 'POST', path: API.userSetDepartment, body: { ids: [BOGUS], departmentId: BOGUS } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.userSetDepartment, body: { ids: [ids.memberId], departmentId: own.departmentId } },
      { method: 'POST', path: API.userSetDepartment, body: { ids: [own.userId], departmentId: ids.departmentId } },
    ],
  },
  'POST /api/v2/user/delete': {
    access: 'admin',
    call: { method: 'POST', path: API.userDelete, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.userDelete, body: { id: ids.memberId } }),
  },
  'POST /api/v2/user/transferFiles': {
    access: 'admin',
    call: { method: 'POST', path: API.userTransferFiles, body: { fromId: BOGUS, toId: BOGUS } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.userTransferFiles, body: { fromId: ids.memberId, toId: own.userId } },
      { method: 'POST', path: API.userTransferFiles, body: { fromId: own.userId, toId: ids.memberId } },
    ],
  },
  'GET /api/v2/user/batch/template': { access: 'admin', call: { method: 'GET', path: `${API.userImportTemplate}?format=csv` }, foreign: 'none' },
  // Takes a file, no id; the batch it makes belongs to the caller's tenant.
  'POST /api/v2/user/batch/preview': { access: 'admin', call: { method: 'POST', path: API.userImportPreview, body: 'x' }, foreign: 'none' },
  'POST /api/v2/user/batch/import': {
    access: 'admin',
    call: { method: 'POST', path: API.userImportCommit, body: { batchId: BOGUS, password: encryptPassword('x') } },
    foreign: (ids) => ({ method: 'POST', path: API.userImportCommit, body: { batchId: ids.batchId, password: encryptPassword('Init@2024a') } }),
  },
  'GET /api/v2/user/batch/result': {
    access: 'admin',
    call: { method: 'GET', path: `${API.userImportResult}?batchId=${BOGUS}` },
    foreign: (ids) => ({ method: 'GET', path: `${API.userImportResult}?batchId=${ids.batchId}` }),
  },

  'POST /api/file/list': {
    access: 'user',
    call: { method: 'POST', path: API.fileList, body: { parentId: null, category: 1 } },
    foreign: (ids) => ({ method: 'POST', path: API.fileList, body: { parentId: ids.folderId, category: 1 } }),
  },
  'POST /api/file/fileCatalog': {
    access: 'user',
    call: { method: 'POST', path: API.fileCatalog, body: { id: null } },
    foreign: (ids) => ({ method: 'POST', path: API.fileCatalog, body: { id: ids.folderId } }),
  },
  'POST /api/file/mkdir': {
    access: 'user',
    call: { method: 'POST', path: API.mkdir, body: { parentId: BOGUS, category: 1, name: 'm' } },
    foreign: (ids) => ({ method: 'POST', path: API.mkdir, body: { parentId: ids.folderId, category: 1, name: 'intruder' } }),
  },
  'POST /api/file/rename': {
    access: 'user',
    call: { method: 'POST', path: API.rename, body: { id: BOGUS, name: 'r' } },
    foreign: (ids) => ({ method: 'POST', path: API.rename, body: { id: ids.fileId, name: 'stolen.bin' } }),
  },
  'GET /api/file/download/:id': {
    access: 'user',
    call: { method: 'GET', path: downloadUrl(BOGUS) },
    foreign: (ids) => ({ method: 'GET', path: downloadUrl(ids.fileId) }),
  },
  'GET /api/v2/file/upload/config': { access: 'user', call: { method: 'GET', path: API.uploadConfig }, foreign: 'none' },
  'POST /api/v2/file/chunk/exist': {
    access: 'user',
    call: { method: 'POST', path: API.chunkExist, body: chunkOpen(BOGUS) },
    // By place, and (上传新版本) by the file's id.
    foreign: (ids) => [
      { method: 'POST', path: API.chunkExist, body: chunkOpen(ids.folderId) },
      { method: 'POST', path: API.chunkExist, body: { ...chunkOpen(null), versionOf: ids.fileId } },
    ],
  },
  'POST /api/v2/file/chunk/upload': {
    access: 'user',
    foreignCode: ERRORS.UPLOAD_NOT_FOUND.code,
    call: { method: 'POST', path: `${API.chunkUpload}?uploadId=${BOGUS}&index=0`, body: {} },
    foreign: (ids) => ({ method: 'POST', path: `${API.chunkUpload}?uploadId=${ids.uploadId}&index=0`, body: {} }),
  },
  'POST /api/v2/file/chunk/merge': {
    access: 'user',
    foreignCode: ERRORS.UPLOAD_NOT_FOUND.code,
    call: { method: 'POST', path: API.chunkMerge, body: { uploadId: BOGUS, name: 'x', parentId: null, category: 1 } },
    foreign: (ids) => ({ method: 'POST', path: API.chunkMerge, body: { uploadId: ids.uploadId, name: 'x', parentId: null, category: 1 } }),
  },
  'POST /api/v2/file/second/upload': {
    access: 'user',
    call: { method: 'POST', path: API.secondUpload, body: { size: 1, name: 'x', parentId: BOGUS, category: 1 } },
    foreign: (ids) => [
      { method: 'POST', path: API.secondUpload, body: { size: 1, name: 'x', parentId: ids.folderId, category: 1 } },
      { method: 'POST', path: API.secondUpload, body: { size: 1, name: 'x', parentId: null, category: 1, onConflict: 'newVersion', versionOf: ids.fileId } },
    ],
  },
  'POST /api/v2/file/batch/upload': {
    access: 'user',
    refusesPerItem: true,
    call: { method: 'POST', path: API.batchUpload, body: batchBody(BOGUS), headers: { 'content-type': 'application/octet-stream' } },
    foreign: (ids) => ({ method: 'POST', path: API.batchUpload, body: batchBody(ids.folderId), headers: { 'content-type': 'application/octet-stream' } }),
  },
  'POST /api/uploadType/canBeUploadType': {
    access: 'user',
    call: { method: 'POST', path: API.canBeUploadType, body: { names: ['a.txt'] } },
    foreign: 'none',
  },
  'POST /api/v2/file/checkFileSensitiveOrLock': {
    access: 'user',
    call: { method: 'POST', path: API.checkFileSensitiveOrLock, body: { items: [] } },
    foreign: (ids) => [
      { method: 'POST', path: API.checkFileSensitiveOrLock, body: { items: [{ key: 'k', name: 'x', size: 1, parentId: ids.folderId, category: 1 }] } },
      { method: 'POST', path: API.checkFileSensitiveOrLock, body: { items: [{ key: 'k', name: 'x', size: 1, parentId: null, category: 1, versionOf: ids.fileId }] } },
    ],
  },
  'POST /api/v2/file/fileVersion/check': {
    access: 'user',
    call: { method: 'POST', path: API.fileVersionCheck, body: { name: 'x', parentId: null, category: 1 } },
    foreign: (ids) => [
      { method: 'POST', path: API.fileVersionCheck, body: { name: 'x', parentId: ids.folderId, category: 1 } },
      { method: 'POST', path: API.fileVersionCheck, body: { name: 'x', parentId: null, category: 1, versionOf: ids.fileId } },
    ],
  },
  'POST /api/v2/file/multipleFile/check': {
    access: 'user',
    call: { method: 'POST', path: API.multipleFileCheck, body: { items: [] } },
    foreign: (ids) => ({
      method: 'POST',
      path: API.multipleFileCheck,
      body: { items: [{ key: 'k', name: 'x', size: 1, parentId: ids.folderId, category: 1 }] },
    }),
  },
  'POST /api/v2/file/relativePath/dir/create': {
    access: 'user',
    call: { method: 'POST', path: API.relativePathDirCreate, body: { parentId: null, category: 1, relativePaths: [] } },
    foreign: (ids) => ({
      method: 'POST',
      path: API.relativePathDirCreate,
      body: { parentId: ids.folderId, category: 1, relativePaths: ['a/b.txt'] },
    }),
  },
  // Desktop sync (issue 17): a folder of another tenant is unknown (404) like one that never existed.
  'POST /api/syn/content': {
    access: 'user',
    call: { method: 'POST', path: API.syncContent, body: { rootId: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.syncContent, body: { rootId: ids.folderId } }),
  },
  'POST /api/syn/check': { access: 'user', call: { method: 'POST', path: API.syncCheck, body: { items: [] } }, foreign: 'none' },
  'POST /api/syn/remove': {
    access: 'user',
    call: { method: 'POST', path: API.syncRemove, body: { items: [{ id: BOGUS, digest: '0'.repeat(64) }] } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.syncRemove, body: { items: [{ id: ids.fileId, digest: '0'.repeat(64) }] } },
      { method: 'POST', path: API.syncRemove, body: { items: [{ id: own.fileId, digest: '0'.repeat(64) }, { id: ids.folderId, digest: '0'.repeat(64) }] } },
    ],
  },

  // Held items are keyed per user: another user's key is simply unknown (no object id of the tenant).
  'GET /api/v2/file/keepOnUpload': {
    access: 'user',
    call: { method: 'GET', path: `${API.keepOnUpload}?key=k&policy=rename`, headers: platform },
    foreign: 'none',
  },
  'GET /api/v2/file/giveUpUpload': { access: 'user', call: { method: 'GET', path: `${API.giveUpUpload}?key=k`, headers: platform }, foreign: 'none' },
  'GET /api/v2/file/unProcess/list': { access: 'user', call: { method: 'GET', path: API.unProcessList }, foreign: 'none' },
  // File operations (issue 5). Calls by member and admin name bogus ids or invalid input, so they change nothing.
  'POST /api/shareFile/list': {
    access: 'user',
    call: { method: 'POST', path: API.shareFileList, body: { parentId: null } },
    foreign: (ids) => ({ method: 'POST', path: API.shareFileList, body: { parentId: ids.folderId } }),
  },
  'POST /api/file/multi/list': {
    access: 'user',
    filtersIds: true,
    call: { method: 'POST', path: API.fileMultiList, body: { ids: [BOGUS] } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.fileMultiList, body: { ids: [ids.fileId] } },
      { method: 'POST', path: API.fileMultiList, body: { ids: [own.fileId, ids.groupFileId] } },
    ],
  },
  'POST /api/file/dir/list': {
    access: 'user',
    call: { method: 'POST', path: API.dirList, body: { parentId: null, category: 1 } },
    foreign: (ids) => [
      { method: 'POST', path: API.dirList, body: { parentId: ids.folderId, category: 1 } },
      { method: 'POST', path: API.dirList, body: { parentId: null, category: 1, spaceId: ids.groupId } },
    ],
  },
  'POST /api/v2/file/copy': {
    access: 'user',
    call: { method: 'POST', path: API.copy, body: { ids: [BOGUS], targetParentId: null, targetCategory: 1 } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.copy, body: { ids: [ids.fileId], targetParentId: own.folderId, targetCategory: 1 } },
      { method: 'POST', path: API.copy, body: { ids: [own.fileId], targetParentId: ids.folderId, targetCategory: 1 } },
      { method: 'POST', path: API.copy, body: { ids: [own.fileId], targetParentId: null, targetCategory: 1, targetSpaceId: ids.groupId } },
    ],
  },
  'POST /api/v2/file/move': {
    access: 'user',
    call: { method: 'POST', path: API.move, body: { ids: [BOGUS], targetParentId: null, targetCategory: 1 } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.move, body: { ids: [ids.fileId], targetParentId: own.folderId, targetCategory: 1 } },
      { method: 'POST', path: API.move, body: { ids: [own.fileId], targetParentId: ids.folderId, targetCategory: 1 } },
    ],
  },
  'POST /api/file/removeFiles': {
    access: 'user',
    call: { method: 'POST', path: API.removeFiles, body: { ids: [BOGUS] } },
    foreign: (ids) => [
      { method: 'POST', path: API.removeFiles, body: { ids: [ids.fileId] } },
      { method: 'POST', path: API.removeFiles, body: { ids: [ids.groupFileId] } },
    ],
  },
  'GET /api/v2/file/keyword/list': {
    access: 'user',
    call: { method: 'GET', path: `${API.keywordList}?keyword=matrix` },
    foreign: (ids) => ({ method: 'GET', path: `${API.keywordList}?keyword=g&spaceId=${ids.groupId}` }),
  },
  // Every space the caller may see: no id to name (the last test checks that no hit comes from tenant one).
  'GET /api/v2/file/unified/search': { access: 'user', call: { method: 'GET', path: `${API.unifiedSearch}?keyword=matrix` }, foreign: 'none' },
  'POST /api/file/createTxt': {
    access: 'user',
    call: { method: 'POST', path: API.createTxt, body: { parentId: BOGUS, category: 1, name: 'm.txt', content: '' } },
    foreign: (ids) => [
      { method: 'POST', path: API.createTxt, body: { parentId: ids.folderId, category: 1, name: 'intruder.txt', content: '' } },
      { method: 'POST', path: API.createTxt, body: { parentId: null, spaceId: ids.groupId, category: 1, name: 'intruder.txt', content: '' } },
    ],
  },
  // Holds are keyed per user: anyone else's hold id is as unknown as a never-issued one.
  'POST /api/file/keepOnCreateTxt': {
    access: 'user',
    call: { method: 'POST', path: API.keepOnCreateTxt, body: { holdId: BOGUS, decision: 'giveUp' } },
    foreign: (ids) => ({ method: 'POST', path: API.keepOnCreateTxt, body: { holdId: ids.holdId, decision: 'rename' } }),
    foreignCode: ERRORS.TXT_HOLD_NOT_FOUND.code,
  },
  // The caller's own recycle bin and favorites: no id to name.
  'POST /api/file/recycle/list': { access: 'user', call: { method: 'POST', path: API.recycleList, body: {} }, foreign: 'none' },
  'POST /api/file/recycle/restore': {
    access: 'user',
    call: { method: 'POST', path: API.recycleRestore, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.recycleRestore, body: { ids: [ids.trashedId] } }),
  },
  'POST /api/file/recycle/purge': {
    access: 'user',
    call: { method: 'POST', path: API.recyclePurge, body: { ids: [BOGUS] } },
    foreign: (ids) => [
      { method: 'POST', path: API.recyclePurge, body: { ids: [ids.trashedId] } },
      { method: 'POST', path: API.recyclePurge, body: { ids: [ids.fileId] } },
    ],
  },
  'POST /api/file/favorite/add': {
    access: 'user',
    call: { method: 'POST', path: API.favoriteAdd, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.favoriteAdd, body: { ids: [ids.fileId] } }),
  },
  'POST /api/file/favorite/remove': {
    access: 'user',
    filtersIds: true,
    call: { method: 'POST', path: API.favoriteRemove, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.favoriteRemove, body: { ids: [ids.fileId] } }),
  },
  'POST /api/file/favorite/list': { access: 'user', call: { method: 'POST', path: API.favoriteList, body: {} }, foreign: 'none' },
  'POST /api/file/lock': {
    access: 'user',
    call: { method: 'POST', path: API.lock, body: { ids: [BOGUS] } },
    foreign: (ids) => [
      { method: 'POST', path: API.lock, body: { ids: [ids.fileId] } },
      { method: 'POST', path: API.lock, body: { ids: [ids.groupFileId] } },
    ],
  },
  'POST /api/file/unlock': {
    access: 'user',
    call: { method: 'POST', path: API.unlock, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.unlock, body: { ids: [ids.fileId] } }),
  },
  'POST /api/file/version/list': {
    access: 'user',
    call: { method: 'POST', path: API.versionList, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.versionList, body: { id: ids.versionedId } }),
  },
  'POST /api/file/version/restore': {
    access: 'user',
    call: { method: 'POST', path: API.versionRestore, body: { id: BOGUS, versionId: BOGUS } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.versionRestore, body: { id: ids.versionedId, versionId: ids.versionId } },
      { method: 'POST', path: API.versionRestore, body: { id: own.fileId, versionId: ids.versionId } },
    ],
  },
  'GET /api/file/version/download/:id': {
    access: 'user',
    call: { method: 'GET', path: versionDownloadUrl(BOGUS) },
    foreign: (ids) => ({ method: 'GET', path: versionDownloadUrl(ids.versionId) }),
  },
  'GET /api/file/zip': {
    access: 'user',
    call: { method: 'GET', path: zipDownloadUrl([BOGUS]) },
    foreign: (ids, own) => [
      { method: 'GET', path: zipDownloadUrl([ids.folderId]) },
      { method: 'GET', path: zipDownloadUrl([own.fileId, ids.groupFileId]) },
    ],
  },
  'GET /api/file/preview/:id': {
    access: 'user',
    call: { method: 'GET', path: previewUrl(BOGUS) },
    foreign: (ids) => ({ method: 'GET', path: previewUrl(ids.fileId) }),
  },
  'GET /api/file/preview/:id/:name': {
    access: 'user',
    call: { method: 'GET', path: namedPreviewUrl(BOGUS, 'a.pdf') },
    foreign: (ids) => ({ method: 'GET', path: namedPreviewUrl(ids.fileId, 'a.pdf') }),
  },
  'GET /api/file/thumbnail/:id': {
    access: 'user',
    call: { method: 'GET', path: thumbnailUrl(BOGUS) },
    foreign: (ids) => ({ method: 'GET', path: thumbnailUrl(ids.fileId) }),
  },

  // Group spaces and the public space. Their own group list and public space: no id to name.
  'POST /api/group/list': { access: 'user', call: { method: 'POST', path: API.groupList, body: {} }, foreign: 'none' },
  'POST /api/space/public/get': { access: 'user', call: { method: 'POST', path: API.publicSpace, body: {} }, foreign: 'none' },
  // An invalid name (§5 second rule): through the guard, nothing created.
  'POST /api/group/create': { access: 'user', call: { method: 'POST', path: API.groupCreate, body: { name: 'a-b' } }, foreign: 'none' },
  'POST /api/group/rename': {
    access: 'user',
    call: { method: 'POST', path: API.groupRename, body: { id: BOGUS, name: 'x' } },
    foreign: (ids) => ({ method: 'POST', path: API.groupRename, body: { id: ids.groupId, name: 'stolen' } }),
  },
  'POST /api/group/delete': {
    access: 'user',
    call: { method: 'POST', path: API.groupDelete, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.groupDelete, body: { id: ids.groupId } }),
  },
  'POST /api/group/member/list': {
    access: 'user',
    call: { method: 'POST', path: API.groupMemberList, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.groupMemberList, body: { id: ids.groupId } }),
  },
  'POST /api/group/member/add': {
    access: 'user',
    call: { method: 'POST', path: API.groupMemberAdd, body: { id: BOGUS, username: 'member' } },
    foreign: (ids) => ({ method: 'POST', path: API.groupMemberAdd, body: { id: ids.groupId, username: 'other-admin', role: 'owner' } }),
  },
  'POST /api/group/member/setRole': {
    access: 'user',
    call: { method: 'POST', path: API.groupMemberSetRole, body: { id: BOGUS, userId: BOGUS, role: 'member' } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.groupMemberSetRole, body: { id: ids.groupId, userId: ids.memberId, role: 'owner' } },
      { method: 'POST', path: API.groupMemberSetRole, body: { id: own.groupId, userId: ids.memberId, role: 'member' } },
    ],
  },
  'POST /api/group/member/remove': {
    access: 'user',
    call: { method: 'POST', path: API.groupMemberRemove, body: { id: BOGUS, userId: BOGUS } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.groupMemberRemove, body: { id: ids.groupId, userId: ids.memberId } },
      { method: 'POST', path: API.groupMemberRemove, body: { id: own.groupId, userId: ids.memberId } },
    ],
  },

  // The action log (admins only). The list takes no object id (the tenant is the caller's); a department
  // id of another tenant answers 404 like an unknown one.
  'POST /api/actionLog/list': {
    access: 'admin',
    call: { method: 'POST', path: API.actionLogList, body: { pageSize: 1 } },
    foreign: (ids) => ({ method: 'POST', path: API.actionLogList, body: { tenantId: ids.tenantId } }),
  },
  'GET /api/actionLog/export': {
    access: 'admin',
    call: { method: 'GET', path: `${API.actionLogExport}?format=csv&outcome=refused` },
    foreign: (ids) => ({ method: 'GET', path: `${API.actionLogExport}?format=csv&tenantId=${ids.tenantId}` }),
  },
  // A signed checkpoint of the caller's chain head; another tenant's id answers 404 (TENANT_NOT_FOUND).
  'GET /api/actionLog/checkpoint': {
    access: 'admin',
    call: { method: 'GET', path: API.actionLogCheckpoint },
    foreign: (ids) => ({ method: 'GET', path: `${API.actionLogCheckpoint}?tenantId=${ids.tenantId}` }),
  },

  // 工作台 and 统计报表 (admins only, the caller's tenant only): another tenant's department answers 404 (ORG-7001).
  'GET /api/report/desk': { access: 'admin', call: { method: 'GET', path: API.reportDesk }, foreign: 'none' },
  'GET /api/report/get': {
    access: 'admin',
    call: { method: 'GET', path: `${API.reportGet}?kind=growth&from=2026-01-01&to=2026-01-31` },
    foreign: (ids) => ({ method: 'GET', path: `${API.reportGet}?kind=storage&from=2026-01-01&to=2026-01-31&departmentId=${ids.departmentId}` }),
  },
  'GET /api/report/export': {
    access: 'admin',
    call: { method: 'GET', path: `${API.reportExport}?kind=logins&from=2026-01-01&to=2026-01-31&format=csv` },
    foreign: (ids) => ({ method: 'GET', path: `${API.reportExport}?kind=storage&from=2026-01-01&to=2026-01-31&format=xlsx&departmentId=${ids.departmentId}` }),
  },

  // Tenant (spec §7). Calls name a tenant id only for platform admins; the first tenant's admin is one
  // (the first admin of the first tenant), so its calls name a bogus tenant and change nothing.
  'GET /api/tenant/getAlias': { access: 'public', call: { method: 'GET', path: `${API.tenantAlias}?id=${BOGUS}` }, foreign: 'none' },
  'GET /api/v2/defaultConfig/loginBackground': { access: 'public', call: { method: 'GET', path: API.loginBackground }, foreign: 'none' },
  'GET /api/tenant/info/get': {
    access: 'user',
    call: { method: 'GET', path: API.tenantInfo },
    foreign: (ids) => ({ method: 'GET', path: `${API.tenantInfo}?tenantId=${ids.tenantId}` }),
  },
  'GET /api/tenant/list': { access: 'admin', call: { method: 'GET', path: API.tenantList }, foreign: 'none' },
  'POST /api/tenant/update': {
    access: 'admin',
    call: { method: 'POST', path: API.tenantUpdate, body: { tenantId: BOGUS, brandName: 'x' } },
    foreign: (ids) => ({ method: 'POST', path: API.tenantUpdate, body: { tenantId: ids.tenantId, brandName: 'stolen' } }),
  },
  'GET /api/tenant/resetLogo': {
    access: 'admin',
    call: { method: 'GET', path: `${API.tenantResetLogo}?tenantId=${BOGUS}`, headers: platform },
    foreign: (ids) => ({ method: 'GET', path: `${API.tenantResetLogo}?tenantId=${ids.tenantId}`, headers: platform }),
  },
  'GET /api/tenant/BGImage/reset': {
    access: 'admin',
    call: { method: 'GET', path: `${API.tenantResetBackground}?tenantId=${BOGUS}`, headers: platform },
    foreign: (ids) => ({ method: 'GET', path: `${API.tenantResetBackground}?tenantId=${ids.tenantId}`, headers: platform }),
  },
  ...Object.fromEntries(
    [API.switchGesture, API.switchKeyCreate, API.switchPublicDownload, API.switchExchange, API.modifySyncTime].map((path): [string, Row] => {
      const field = path === API.modifySyncTime ? 'syncTime=30' : 'value=1';
      return [
        `POST ${path}`,
        {
          access: 'admin',
          call: { method: 'POST', path, body: `${field}&tenantId=${BOGUS}`, headers: form },
          foreign: (ids) => ({ method: 'POST', path, body: `${field}&tenantId=${ids.tenantId}`, headers: form }),
        },
      ];
    }),
  ),
  'POST /api/v2/sysSetting/gesture/idleTime': {
    access: 'admin',
    call: { method: 'POST', path: API.gestureIdleTime, body: { idleTime: 5, tenantId: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.gestureIdleTime, body: { idleTime: 5, tenantId: ids.tenantId } }),
  },
  // Ours (WebDAV, issue 39): JSON, like every switch §7 does not give as a form.
  'POST /api/v2/sysSetting/webdav/switch': {
    access: 'admin',
    call: { method: 'POST', path: API.switchWebdav, body: { value: '1', tenantId: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.switchWebdav, body: { value: '1', tenantId: ids.tenantId } }),
  },
  // Dictionaries and static data: the caller's tenant, no id to name.
  'POST /api/dict/list': { access: 'user', call: { method: 'POST', path: API.dictList, body: {} }, foreign: 'none' },
  'GET /api/dict/queryByGroup': { access: 'user', call: { method: 'GET', path: `${API.dictQueryByGroup}?group=quota` }, foreign: 'none' },
  'GET /api/dict/group/get': { access: 'user', call: { method: 'GET', path: API.dictGroupGet }, foreign: 'none' },
  'POST /api/dict/item/update': { access: 'admin', call: { method: 'POST', path: API.dictItemUpdate, body: { group: 'nope', code: 'x' } }, foreign: 'none' },
  'POST /api/staticData/list': { access: 'user', call: { method: 'POST', path: API.staticData, body: { names: ['quota'] } }, foreign: 'none' },

  // Sharing (issue 15). Shares, links and applications are the caller's own: another user's or tenant's
  // ids answer their not-found code (404) exactly like ids never issued.
  'POST /api/v2/share/create': {
    access: 'user',
    call: { method: 'POST', path: API.shareCreate, body: { fileIds: [BOGUS], recipients: [{ type: 'user', id: BOGUS }], permission: 'preview', validityDays: 0 } },
    foreign: (ids, own) => [
      { method: 'POST', path: API.shareCreate, body: { fileIds: [ids.fileId], recipients: [{ type: 'user', id: own.userId }], permission: 'edit', validityDays: 0 } },
      { method: 'POST', path: API.shareCreate, body: { fileIds: [ids.folderId, own.fileId], recipients: [{ type: 'user', id: own.userId }], permission: 'edit', validityDays: 0 } },
    ],
  },
  'POST /api/v2/share/update': {
    access: 'user',
    call: { method: 'POST', path: API.shareUpdate, body: { id: BOGUS, permission: 'edit' } },
    foreign: (ids) => ({ method: 'POST', path: API.shareUpdate, body: { id: ids.shareId, permission: 'edit' } }),
  },
  'POST /api/v2/share/revoke': {
    access: 'user',
    call: { method: 'POST', path: API.shareRevoke, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.shareRevoke, body: { ids: [ids.shareId] } }),
  },
  'POST /api/v2/share/mine': { access: 'user', call: { method: 'POST', path: API.shareMine, body: {} }, foreign: 'none' },
  'POST /api/v2/share/check': {
    access: 'user',
    call: { method: 'POST', path: API.shareCheck, body: { kind: 'link', fileIds: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.shareCheck, body: { kind: 'share', fileIds: [ids.fileId], recipients: [] } }),
  },
  'POST /api/v2/shareLink/create': {
    access: 'user',
    call: { method: 'POST', path: API.linkCreate, body: { fileId: BOGUS, code: '', validityDays: 0, downloadLimit: null, previewOnly: false } },
    foreign: (ids) => ({ method: 'POST', path: API.linkCreate, body: { fileId: ids.fileId, code: '', validityDays: 0, downloadLimit: null, previewOnly: false } }),
  },
  'POST /api/v2/shareLink/update': {
    access: 'user',
    call: { method: 'POST', path: API.linkUpdate, body: { id: BOGUS, previewOnly: true } },
    foreign: (ids) => ({ method: 'POST', path: API.linkUpdate, body: { id: ids.linkId, previewOnly: false, downloadLimit: null } }),
  },
  'POST /api/v2/shareLink/revoke': {
    access: 'user',
    call: { method: 'POST', path: API.linkRevoke, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.linkRevoke, body: { ids: [ids.linkId] } }),
  },
  'POST /api/v2/shareLink/mine': { access: 'user', call: { method: 'POST', path: API.linkMine, body: {} }, foreign: 'none' },
  // The visitor's calls are open to whoever holds a link's token (that is what a link is for): they take a token or a
  // visit key, not ids of the tenant. share-links.test.ts covers unknown tokens, other tenants and save.
  'POST /api/v2/shareLink/summary': { access: 'public', call: { method: 'POST', path: API.linkSummary, body: { token: BOGUS } }, foreign: 'none' },
  'POST /api/v2/shareLink/open': { access: 'public', call: { method: 'POST', path: API.linkOpen, body: { token: BOGUS } }, foreign: 'none' },
  'POST /api/v2/shareLink/list': { access: 'public', call: { method: 'POST', path: API.linkList, body: { visit: BOGUS, parentId: null } }, foreign: 'none' },
  'POST /api/v2/shareLink/download': { access: 'public', call: { method: 'POST', path: API.linkDownload, body: { visit: BOGUS, ids: [BOGUS] } }, foreign: 'none' },
  'GET /api/v2/shareLink/file/:ticket': { access: 'public', call: { method: 'GET', path: `${API.linkFilePrefix}${BOGUS}` }, foreign: 'none' },
  // HEAD of a ticket is answered by its own handler (it must take nothing of the ticket's one copy).
  'HEAD /api/v2/shareLink/file/:ticket': { access: 'public', call: { method: 'HEAD', path: `${API.linkFilePrefix}${BOGUS}` }, foreign: 'none' },
  'GET /api/v2/shareLink/preview/:id': { access: 'public', call: { method: 'GET', path: `${API.linkPreviewPrefix}${BOGUS}?v=${BOGUS}` }, foreign: 'none' },
  'GET /api/v2/shareLink/thumbnail/:id': { access: 'public', call: { method: 'GET', path: `${API.linkThumbnailPrefix}${BOGUS}?v=${BOGUS}` }, foreign: 'none' },
  'POST /api/v2/shareLink/save': { access: 'user', call: { method: 'POST', path: API.linkSave, body: { visit: BOGUS, ids: [BOGUS], targetParentId: null } }, foreign: 'none' },
  'POST /api/v2/shareApply/submit': {
    access: 'user',
    call: { method: 'POST', path: API.applySubmit, body: { kind: 'link', fileIds: [BOGUS], link: { code: '', validityDays: 0, downloadLimit: null, previewOnly: false }, reason: 'r', approverId: BOGUS } },
    foreign: (ids, own) => [
      {
        method: 'POST',
        path: API.applySubmit,
        body: { kind: 'link', fileIds: [ids.fileId], link: { code: '', validityDays: 0, downloadLimit: null, previewOnly: false }, reason: 'r', approverId: ids.memberId },
      },
      // Widening a link (linkId): another tenant's link is unknown, even with an entry of one's own.
      {
        method: 'POST',
        path: API.applySubmit,
        body: { kind: 'link', fileIds: [own.fileId], link: { code: '', validityDays: 0, downloadLimit: null, previewOnly: false }, linkId: ids.linkId, reason: 'r', approverId: own.userId },
      },
    ],
  },
  'POST /api/v2/shareApply/mine': { access: 'user', call: { method: 'POST', path: API.applyMine, body: {} }, foreign: 'none' },
  'POST /api/v2/shareApply/todo': { access: 'user', call: { method: 'POST', path: API.applyTodo, body: { box: 'done' } }, foreign: 'none' },
  'POST /api/v2/shareApply/get': {
    access: 'user',
    call: { method: 'POST', path: API.applyGet, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.applyGet, body: { id: ids.applicationId } }),
  },
  'POST /api/v2/shareApply/approve': {
    access: 'user',
    call: { method: 'POST', path: API.applyApprove, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.applyApprove, body: { ids: [ids.applicationId] } }),
  },
  'POST /api/v2/shareApply/reject': {
    access: 'user',
    call: { method: 'POST', path: API.applyReject, body: { ids: [BOGUS], comment: 'no' } },
    foreign: (ids) => ({ method: 'POST', path: API.applyReject, body: { ids: [ids.applicationId], comment: 'no' } }),
  },
  'POST /api/v2/shareApply/todoCount': { access: 'user', call: { method: 'POST', path: API.applyTodoCount, body: {} }, foreign: 'none' },
  // Another tenant's application (and its file): 404 like an unknown one.
  'GET /api/v2/shareApply/preview/:id': {
    access: 'user',
    call: { method: 'GET', path: `${API.applyPreviewPrefix}${BOGUS}?app=${BOGUS}` },
    foreign: (ids) => ({ method: 'GET', path: `${API.applyPreviewPrefix}${ids.fileId}?app=${ids.applicationId}` }),
  },
  'POST /api/v2/shareApply/withdraw': {
    access: 'user',
    call: { method: 'POST', path: API.applyWithdraw, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.applyWithdraw, body: { id: ids.applicationId } }),
  },
  'GET /api/v2/fileSecurity/get': { access: 'admin', call: { method: 'GET', path: API.fileSecurityGet }, foreign: 'none' },
  'POST /api/v2/fileSecurity/update': {
    access: 'admin',
    call: { method: 'POST', path: API.fileSecurityUpdate, body: { sensitiveKeywords: 'not-a-list' } },
    foreign: (ids) => [
      {
        method: 'POST',
        path: API.fileSecurityUpdate,
        body: { sharePolicy: { link: { always: true, sensitive: true, folderIds: [ids.folderId], departmentIds: [] }, internal: { otherDepartment: false }, approver: { kind: 'manager' }, secondApprover: null, applicationTtlDays: 7 } },
      },
      {
        method: 'POST',
        path: API.fileSecurityUpdate,
        body: { sharePolicy: { link: { always: true, sensitive: true, folderIds: [], departmentIds: [ids.departmentId] }, internal: { otherDepartment: false }, approver: { kind: 'manager' }, secondApprover: null, applicationTtlDays: 7 } },
      },
      {
        method: 'POST',
        path: API.fileSecurityUpdate,
        body: { sharePolicy: { link: { always: true, sensitive: true, folderIds: [], departmentIds: [] }, internal: { otherDepartment: false }, approver: { kind: 'user', userId: ids.memberId }, secondApprover: null, applicationTtlDays: 7 } },
      },
    ],
  },
  'POST /api/v2/file/checkSwap': {
    access: 'user',
    call: { method: 'POST', path: API.checkSwap, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.checkSwap, body: { ids: [ids.fileId] } }),
  },
  'POST /api/v2/file/fileSafe/check': {
    access: 'user',
    call: { method: 'POST', path: API.fileSafeCheck, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.fileSafeCheck, body: { ids: [ids.fileId] } }),
  },
  'POST /api/v2/file/processed/list': {
    access: 'user',
    call: { method: 'POST', path: API.processedList, body: {} },
    foreign: (ids) => ({ method: 'POST', path: API.processedList, body: { ids: [ids.fileId], decision: 'delete' } }),
  },
  'GET /api/v2/file/keepOnDownload': {
    access: 'user',
    call: { method: 'GET', path: `${API.keepOnDownload}?id=${BOGUS}`, headers: platform },
    foreign: (ids) => ({ method: 'GET', path: `${API.keepOnDownload}?id=${ids.fileId}`, headers: platform }),
  },
  'GET /api/v2/onlyoffice/canoperationforshare': {
    access: 'user',
    call: { method: 'GET', path: `${API.canOperationForShare}?id=${BOGUS}` },
    foreign: (ids) => ({ method: 'GET', path: `${API.canOperationForShare}?id=${ids.fileId}` }),
  },
  // Notices (issue 16). The counts, lists and stream are the caller's own; message and notice ids of
  // another tenant are unknown (404), or ignored where unknown ids are (mark read, delete, pop-up ack).
  'GET /api/v2/notice/unread/count': { access: 'user', call: { method: 'GET', path: API.noticeUnreadCount }, foreign: 'none' },
  'POST /api/sysMsg/userUnReadNum': { access: 'user', call: { method: 'POST', path: API.sysMsgUnreadNum, body: {} }, foreign: 'none' },
  'POST /api/fileMsg/userUnReadNum': { access: 'user', call: { method: 'POST', path: API.fileMsgUnreadNum, body: {} }, foreign: 'none' },
  'POST /api/fileMsg/list': { access: 'user', call: { method: 'POST', path: API.fileMsgList, body: 'read=0', headers: form }, foreign: 'none' },
  'POST /api/fileMsg/search': { access: 'user', call: { method: 'POST', path: API.fileMsgSearch, body: 'keyword=x', headers: form }, foreign: 'none' },
  'POST /api/fileMsg/markAllRead': { access: 'user', call: { method: 'POST', path: API.fileMsgMarkAllRead, body: '', headers: form }, foreign: 'none' },
  'POST /api/v2/fileMessage/markRead': {
    access: 'user',
    call: { method: 'POST', path: API.fileMsgMarkRead, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.fileMsgMarkRead, body: { ids: [ids.messageId] } }),
    ignoresIds: true,
  },
  'POST /api/v2/fileMessage/delete': {
    access: 'user',
    call: { method: 'POST', path: API.fileMsgDelete, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.fileMsgDelete, body: { ids: [ids.messageId] } }),
    ignoresIds: true,
  },
  'GET /api/v2/notice/stream': { access: 'user', call: { method: 'GET', path: API.noticeStream }, foreign: 'none', stream: true },
  'POST /api/sysMsg/list': { access: 'user', call: { method: 'POST', path: API.sysMsgList, body: { pageSize: 1 } }, foreign: 'none' },
  'GET /api/sysMsg/get': {
    access: 'user',
    call: { method: 'GET', path: `${API.sysMsgGet}?id=${BOGUS}` },
    foreign: (ids) => ({ method: 'GET', path: `${API.sysMsgGet}?id=${ids.noticeId}` }),
  },
  'POST /api/sysMsg/markRead': {
    access: 'user',
    call: { method: 'POST', path: API.sysMsgMarkRead, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.sysMsgMarkRead, body: { ids: [ids.noticeId] } }),
    ignoresIds: true,
  },
  'POST /api/sysMsg/markAllRead': { access: 'user', call: { method: 'POST', path: API.sysMsgMarkAllRead, body: {} }, foreign: 'none' },
  'GET /api/sysMsg/popup': { access: 'user', call: { method: 'GET', path: API.sysMsgPopup }, foreign: 'none' },
  'POST /api/sysMsg/popup/ack': {
    access: 'user',
    call: { method: 'POST', path: API.sysMsgPopupAck, body: { ids: [BOGUS] } },
    foreign: (ids) => ({ method: 'POST', path: API.sysMsgPopupAck, body: { ids: [ids.noticeId] } }),
    ignoresIds: true,
  },
  'POST /api/v2/notice/manage/list': { access: 'admin', call: { method: 'POST', path: API.noticeManageList, body: { pageSize: 1 } }, foreign: 'none' },
  'GET /api/v2/notice/manage/get': {
    access: 'admin',
    call: { method: 'GET', path: `${API.noticeManageGet}?id=${BOGUS}` },
    foreign: (ids) => ({ method: 'GET', path: `${API.noticeManageGet}?id=${ids.noticeId}` }),
  },
  'POST /api/v2/notice/manage/save': {
    access: 'admin',
    call: { method: 'POST', path: API.noticeManageSave, body: noticeBody({ departmentIds: [BOGUS] }) },
    foreign: (ids, own) => [
      { method: 'POST', path: API.noticeManageSave, body: noticeBody({ departmentIds: [ids.departmentId] }) },
      { method: 'POST', path: API.noticeManageSave, body: noticeBody({ departmentIds: [own.departmentId], userIds: [ids.memberId] }) },
      { method: 'POST', path: API.noticeManageSave, body: { ...noticeBody({ all: true }), id: ids.noticeId } },
    ],
  },
  'POST /api/v2/notice/manage/pin': {
    access: 'admin',
    call: { method: 'POST', path: API.noticeManagePin, body: { id: BOGUS, pinned: true } },
    foreign: (ids) => ({ method: 'POST', path: API.noticeManagePin, body: { id: ids.noticeId, pinned: true } }),
  },
  'POST /api/v2/notice/manage/withdraw': {
    access: 'admin',
    call: { method: 'POST', path: API.noticeManageWithdraw, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.noticeManageWithdraw, body: { id: ids.noticeId } }),
  },
  'POST /api/v2/notice/manage/readers': {
    access: 'admin',
    call: { method: 'POST', path: API.noticeManageReaders, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.noticeManageReaders, body: { id: ids.noticeId } }),
  },
  'POST /api/v2/notice/manage/delete': {
    access: 'admin',
    call: { method: 'POST', path: API.noticeManageDelete, body: { id: BOGUS } },
    foreign: (ids) => ({ method: 'POST', path: API.noticeManageDelete, body: { id: ids.noticeId } }),
  },

  // Test hooks (DRIVE_TEST_HOOKS=1 only), private like everything else.
  'GET /api/test/stats': { access: 'user', call: { method: 'GET', path: API.testStats }, foreign: 'none' },
  'PUT /api/test/raw-sink': { access: 'user', call: { method: 'PUT', path: API.testRawSink, body: 'x' }, foreign: 'none' },
  'POST /api/test/sweep': { access: 'user', call: { method: 'POST', path: API.testSweep }, foreign: 'none' },
};

/** A file message of the member's: the admin locks (and unlocks) a file of the member's group. */
async function memberMessage(groupFileId: string, memberId: string): Promise<string> {
  expect((await admin.post(API.lock, { ids: [groupFileId] })).status).toBe(200);
  expect((await admin.post(API.unlock, { ids: [groupFileId] })).status).toBe(200);
  const row = await withDb(server, (db) => db.prepare('select id from file_messages where user_id = ?').get(memberId) as { id: string } | undefined);
  if (!row) throw new Error('the member got no file message');
  return row.id;
}

let server: TestServer;
let admin: Client;
let member: Client;
let gated: Client;
let foreignAdmin: Client;
let ids: Ids;
let own: Own;

async function send(client: Client, call: Call, stream = false): Promise<Answer<{ errorCode?: string }>> {
  if (stream) {
    // An open stream never ends by itself: its status and type are the answer.
    const abort = new AbortController();
    const res = await client.raw(call.path, { method: call.method, headers: call.headers, signal: abort.signal });
    if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      abort.abort();
      return { status: res.status, headers: res.headers, body: {} };
    }
    return { status: res.status, headers: res.headers, body: (await res.json()) as { errorCode?: string } };
  }
  if (call.body === undefined || (typeof call.body === 'object' && !(call.body instanceof Uint8Array))) {
    return client.request(call.method, call.path, call.body, call.headers);
  }
  const res = await client.raw(call.path, { method: call.method, headers: { 'content-type': 'text/plain', ...call.headers }, body: call.body as string | Uint8Array<ArrayBuffer> });
  const text = await res.text();
  let body: { errorCode?: string } = {};
  try {
    body = JSON.parse(text) as { errorCode?: string };
  } catch {
    body = {};
  }
  return { status: res.status, headers: res.headers, body };
}

const GUARD_CODES: string[] = [ERRORS.UNAUTHORIZED.code, ERRORS.FORBIDDEN.code, ERRORS.PASSWORD_CHANGE_REQUIRED.code, ERRORS.PASSWORD_EXPIRED.code];
const throughGuard = (res: Answer<{ errorCode?: string }>) => res.status !== 401 && !GUARD_CODES.includes(res.body?.errorCode ?? '');

beforeAll(async () => {
  server = await startServer();
  admin = await loggedInClient(server);
  // The member logs in before its initial password gate is lifted: that session shows the gate.
  gated = new Client(server.baseUrl);
  expect((await login(server, gated, MEMBER)).status).toBe(200);

  const folder = await admin.post<{ data: FileEntry }>(API.mkdir, { parentId: null, category: 1, name: 'tenant-one' });
  const file = await uploadFile(admin, randomContent(1000), 'secret.bin', { parentId: folder.body.data.id });
  const open = await postChunkExist(admin, randomContent(2000), 'pending.bin');
  const memberId = await userIdOf(server, 'member');
  const group = await createGroup(admin, 'matrix_group');
  expect((await admin.post(API.groupMemberAdd, { id: group.id, username: 'member', role: 'member' })).status).toBe(200);
  const groupFile = await text(admin, 'g.txt', 'group content', null, { spaceId: group.id });
  const trashed = await text(admin, 'gone.txt', 'gone', folder.body.data.id);
  expect((await admin.post(API.removeFiles, { ids: [trashed.id] })).status).toBe(200);
  // A second createTxt of one name is held; 'newVersion' makes the first content a version.
  const versioned = await text(admin, 'v.txt', 'one');
  const held = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: null, category: 1, name: 'v.txt', content: 'two' });
  expect(held.body.data.status).toBe('held');
  const kept = await admin.post(API.keepOnCreateTxt, { holdId: (held.body.data as { holdId: string }).holdId, decision: 'newVersion' });
  expect(kept.status, JSON.stringify(kept.body)).toBe(200);
  const versions = await admin.post<{ data: VersionListResponse }>(API.versionList, { id: versioned.id });
  const pending = await admin.post<{ data: CreateTxtResponse }>(API.createTxt, { parentId: null, category: 1, name: 'v.txt', content: 'three' });
  ids = {
    folderId: folder.body.data.id,
    fileId: file.body.data.id,
    uploadId: (open.body.data as unknown as { uploadId: string }).uploadId,
    memberId,
    groupId: group.id,
    groupFileId: groupFile.id,
    trashedId: trashed.id,
    versionedId: versioned.id,
    versionId: versions.body.data.versions.find((v) => !v.current)!.id,
    holdId: (pending.body.data as { holdId: string }).holdId,
    tenantId: await withDb(server, (db) => (db.prepare("select tenant_id from users where username = 'admin'").get() as { tenant_id: string }).tenant_id),
    departmentId: (await createDepartment(admin, '矩阵部门')).id,
    batchId: (await previewSheet(admin, 'm.csv', '账号,昵称\nmatrix.row,矩阵\n')).body.data.batchId,
    ...(await sharingIds(memberId, file.body.data.id)),
    noticeId: (await admin.post<{ data: ManagedNotice }>(API.noticeManageSave, noticeBody({ all: true }))).body.data.id,
    messageId: await memberMessage(groupFile.id, memberId),
    sessionId: await withDb(server, (db) => (db.prepare("select s.public_id from sessions s join users u on u.id = s.user_id where u.username = 'admin' limit 1").get() as { public_id: string }).public_id),
    devicePasswordId: (await admin.post<{ data: { id: string } }>(API.devicePasswordCreate, { name: 'matrix' })).body.data.id,
    jobId: await withDb(server, (db) => (db.prepare('select j.blob_id from document_jobs j join files f on f.blob_id = j.blob_id where f.id = ?').get(groupFile.id) as { blob_id: string }).blob_id),
  };

  await addTenantWithUser(server, 'other-admin', 'Other@2024');
  await withDb(server, (db) => db.prepare("update users set role = 'admin' where username = 'other-admin'").run());
  foreignAdmin = await loggedInClient(server, { username: 'other-admin', password: 'Other@2024' });
  own = {
    folderId: (await mkdir(foreignAdmin, 'theirs')).id,
    fileId: (await text(foreignAdmin, 'theirs.txt', 'theirs')).id,
    groupId: (await createGroup(foreignAdmin, 'their_group')).id,
    departmentId: (await createDepartment(foreignAdmin, '他们的部门')).id,
    userId: await userIdOf(server, 'other-admin'),
  };
});
afterAll(async () => {
  await server.close();
});

/** A share, a link and a pending application of the admin's (the member approves applications). */
async function sharingIds(memberId: string, fileId: string): Promise<Pick<Ids, 'shareId' | 'linkId' | 'applicationId'>> {
  const shared = await admin.post<{ data: ShareCreateResponse }>(API.shareCreate, { fileIds: [fileId], recipients: [{ type: 'user', id: memberId }], permission: 'preview', validityDays: 0 });
  const linked = await admin.post<{ data: LinkInfo }>(API.linkCreate, { fileId, code: '', validityDays: 0, downloadLimit: null, previewOnly: false });
  const policy = { link: { always: false, sensitive: false, folderIds: [], departmentIds: [] }, internal: { otherDepartment: false }, approver: { kind: 'user', userId: memberId }, secondApprover: null, applicationTtlDays: 7 };
  expect((await admin.post(API.fileSecurityUpdate, { sharePolicy: policy })).status).toBe(200);
  const applied = await admin.post<{ data: ShareApplication }>(API.applySubmit, {
    kind: 'link',
    fileIds: [fileId],
    link: { code: '', validityDays: 0, downloadLimit: null, previewOnly: false },
    reason: 'matrix',
    approverId: memberId,
  });
  expect([shared.status, linked.status, applied.status], JSON.stringify([shared.body, linked.body, applied.body])).toEqual([200, 200, 200]);
  return { shareId: shared.body.data.shares[0]!.id, linkId: linked.body.data.id, applicationId: applied.body.data.id };
}

describe('access matrix', () => {
  it('classifies every registered API route, and each classification matches the route options', () => {
    const registered = server.app.apiRoutes.map((r) => `${r.method} ${r.url}`);
    const unclassified = registered.filter((key) => !(key in MATRIX));
    expect(unclassified, 'routes without a row in MATRIX').toEqual([]);
    expect(Object.keys(MATRIX).filter((key) => !registered.includes(key)), 'rows without a route').toEqual([]);
    for (const route of server.app.apiRoutes) {
      const row = MATRIX[`${route.method} ${route.url}`]!;
      expect(Boolean(route.config.public), route.url).toBe(row.access === 'public');
      expect(Boolean(route.config.adminOnly), route.url).toBe(row.access === 'admin');
      expect(Boolean(route.config.allowDuringPasswordChange), route.url).toBe(Boolean(row.duringChange));
    }
  });

  it('anonymous: 401 except on public routes', async () => {
    for (const [key, row] of Object.entries(MATRIX)) {
      const res = await send(new Client(server.baseUrl), row.call, row.stream);
      if (row.access === 'public') expect(res.status, key).not.toBe(401);
      else expect(res.body, key).toEqual({ errorCode: ERRORS.UNAUTHORIZED.code, errorMessage: ERRORS.UNAUTHORIZED.message });
    }
  });

  it('a member with an initial password: only the change screen routes answer', async () => {
    for (const [key, row] of Object.entries(MATRIX)) {
      if (row.endsSession || key.startsWith('POST /api/user/info/modify')) continue;
      const res = await send(gated, row.call, row.stream);
      if (row.access === 'public' || row.duringChange) expect(throughGuard(res), `${key} ${JSON.stringify(res.body)}`).toBe(true);
      else expect(res.body, key).toMatchObject({ errorCode: ERRORS.PASSWORD_CHANGE_REQUIRED.code });
    }
  });

  it('member: FORBIDDEN on admin routes, through the guard elsewhere; admin: through everywhere', async () => {
    await liftPasswordGate(server, 'member');
    member = await loggedInClient(server, MEMBER);
    for (const [key, row] of Object.entries(MATRIX)) {
      const asMember = row.endsSession ? await loggedInClient(server, MEMBER) : member;
      const m = await send(asMember, row.call, row.stream);
      if (row.access === 'admin') expect(m.body, key).toEqual({ errorCode: ERRORS.FORBIDDEN.code, errorMessage: ERRORS.FORBIDDEN.message });
      else expect(throughGuard(m), `${key} ${JSON.stringify(m.body)}`).toBe(true);

      const asAdmin = row.endsSession ? await loggedInClient(server) : admin;
      const a = await send(asAdmin, row.call, row.stream);
      expect(throughGuard(a), `${key} ${JSON.stringify(a.body)}`).toBe(true);
    }
    // A member cannot read another user's roles either.
    expect((await member.get(`${API.getRoles}?userId=${ids.memberId}`)).status).toBe(200);
    const adminId = await userIdOf(server, 'admin');
    expect((await member.get(`${API.getRoles}?userId=${adminId}`)).body).toMatchObject({ errorCode: ERRORS.FORBIDDEN.code });
  });

  it("another tenant's admin gets 404 for this tenant's ids, exactly like ids that never existed", async () => {
    const bogus: Ids = {
      folderId: BOGUS,
      fileId: BOGUS,
      uploadId: BOGUS,
      memberId: BOGUS,
      groupId: BOGUS,
      groupFileId: BOGUS,
      trashedId: BOGUS,
      versionedId: BOGUS,
      versionId: BOGUS,
      holdId: BOGUS,
      tenantId: BOGUS,
      departmentId: BOGUS,
      batchId: BOGUS,
      shareId: BOGUS,
      linkId: BOGUS,
      applicationId: BOGUS,
      noticeId: BOGUS,
      messageId: BOGUS,
      sessionId: BOGUS,
      devicePasswordId: BOGUS,
      jobId: BOGUS,
    };
    for (const [key, row] of Object.entries(MATRIX)) {
      if (row.foreign === 'none') continue;
      const reals = [row.foreign(ids, own)].flat();
      const nevers = [row.foreign(bogus, own)].flat();
      for (const [i, call] of reals.entries()) {
        const label = `${key} #${i} ${JSON.stringify(call.body ?? call.path)}`;
        const real = await send(foreignAdmin, call);
        const never = await send(foreignAdmin, nevers[i]!);
        expect(real.body, label).toEqual(never.body);
        expect(real.status, label).toBe(never.status);
        if (row.foreignCode) expect(real.body, label).toMatchObject({ errorCode: row.foreignCode });
        else if (row.refusesPerItem) {
          expect(real.status, label).toBe(200);
          expect((real.body as { data: BatchUploadResponse }).data.results, label).toEqual([expect.objectContaining({ status: 'refused', errorCode: ERRORS.NOT_FOUND.code })]);
        }
        else if (row.ignoresIds) expect(real.status, label).toBe(200);
        else if (row.filtersIds) {
          expect(real.status, label).toBe(200);
          const seen = (real.body as { data: { items: Array<{ id: string }> } }).data.items.map((item) => item.id);
          expect(seen.filter((id) => !Object.values(own).includes(id)), label).toEqual([]);
        }
        else expect(real.status, `${label} ${JSON.stringify(real.body)}`).toBe(404);
      }
    }
    // The other tenant's user list holds only its own users; its searches find nothing of tenant one.
    const theirs = await foreignAdmin.post<{ data: Array<{ website: string }> }>(API.userSearch, {});
    expect(theirs.body.data.map((u) => u.website)).toEqual(['other-admin']);
    for (const path of [`${API.unifiedSearch}?keyword=.`, `${API.keywordList}?keyword=.`]) {
      const found = await foreignAdmin.get<{ data: SearchResponse }>(path);
      expect(found.body.data.items.map((f) => f.name), path).toEqual(['theirs.txt']);
    }
    const groups = await foreignAdmin.post<{ data: SpaceInfo[] }>(API.groupList, {});
    expect(groups.body.data.map((g) => g.name)).toEqual(['their_group']);
    // Nothing of tenant one changed: entries, locks, favorites, recycle bin, versions, hold, group.
    const listing = await admin.post<{ data: { items: FileEntry[] } }>(API.fileList, { parentId: ids.folderId, category: 1 });
    expect(listing.body.data.items.map((f) => f.name)).toEqual(['secret.bin']);
    const current = await admin.post<{ data: { items: FileEntry[] } }>(API.fileMultiList, { ids: [ids.fileId, ids.groupFileId] });
    expect(current.body.data.items.map((f) => [f.name, f.locked])).toEqual([
      ['secret.bin', false],
      ['g.txt', false],
    ]);
    const bin = await admin.post<{ data: { items: FileEntry[] } }>(API.recycleList, {});
    expect(bin.body.data.items.map((f) => f.id)).toEqual([ids.trashedId]);
    const versions = await admin.post<{ data: VersionListResponse }>(API.versionList, { id: ids.versionedId });
    expect(versions.body.data.versions.map((v) => v.id)).toEqual([ids.versionedId, ids.versionId]);
    expect((await admin.post(API.keepOnCreateTxt, { holdId: ids.holdId, decision: 'giveUp' })).status).toBe(200);
    const members = await admin.post<{ data: GroupMemberListResponse }>(API.groupMemberList, { id: ids.groupId });
    expect(members.body.data.members.map((m) => [m.username, m.role])).toEqual([
      ['admin', 'owner'],
      ['member', 'member'],
    ]);
    const adminGroups = await admin.post<{ data: SpaceInfo[] }>(API.groupList, {});
    expect(adminGroups.body.data.map((g) => g.name)).toEqual(['matrix_group']);
    const roles = await admin.get<{ data: { roles: string[] } }>(`${API.getRoles}?userId=${ids.memberId}`);
    expect(roles.body.data.roles).toEqual(['member']);
    expect((await login(server, new Client(server.baseUrl), MEMBER)).status).toBe(200);
    // Nor of its organisation: the department, the member's account and department, the batch.
    const tree = await orgTree(admin);
    expect(tree.departments.filter((d) => d.id === ids.departmentId).map((d) => [d.name, d.parentId])).toEqual([['矩阵部门', null]]);
    expect(tree.departments.some((d) => d.name === 'intruder')).toBe(false);
    const memberRow = await admin.get<{ data: { website: string; departmentId: string } }>(`${API.userGet}?id=${ids.memberId}`);
    expect(memberRow.body.data).toMatchObject({ website: 'member', departmentId: tree.departments.find((d) => d.unassigned)!.id });
    expect((await admin.get(`${API.userImportResult}?batchId=${ids.batchId}`)).status).toBe(200);
    // Nor of its sharing: the share, the link and the application are as they were.
    const shares = await admin.post<{ data: { items: Array<{ id: string; permission: string; state: string }> } }>(API.shareMine, {});
    expect(shares.body.data.items.find((x) => x.id === ids.shareId)).toMatchObject({ permission: 'preview', state: 'active' });
    const links = await admin.post<{ data: { items: Array<{ id: string; previewOnly: boolean; state: string }> } }>(API.linkMine, {});
    expect(links.body.data.items.find((x) => x.id === ids.linkId)).toMatchObject({ previewOnly: false, state: 'active' });
    expect((await admin.post<{ data: ShareApplication }>(API.applyGet, { id: ids.applicationId })).body.data.state).toBe('pending');
  });
});

describe('byte-serving routes × grants (common/api/byte-access.ts)', () => {
  it('answers every cell as the one byte decision says: renditions to view, originals only to those who may download', async () => {
    const password = 'Bytes@2024';
    const accounts = ['bytes-taker', 'bytes-viewer', 'bytes-bystander'] as const;
    const userIds = await Promise.all(accounts.map((a) => addUser(server, ids.tenantId, a, password)));
    const [taker, viewer, bystander] = await Promise.all(accounts.map((a) => loggedInClient(server, { username: a, password })));
    const f = await byteFixture(admin);
    // The bystander of the tenant holds both links (and so may save from the plain one), nothing else.
    const visits = await grantBytes(admin, f, { download: userIds[0]!, preview: userIds[1]! }, bystander!);
    const sessions: Record<SessionGrant, Client> = { owner: admin, 'download share': taker!, 'preview share': viewer!, none: bystander!, 'other tenant': foreignAdmin };
    // Every cell is asked; the wrong ones are listed together.
    const wrong: string[] = [];
    let cells = 0;
    for (const [route, row] of Object.entries(SESSION_ROUTES)) {
      for (const grant of SESSION_GRANTS) {
        const problem = await judge(await sessions[grant].raw(row.path(f), { headers: row.headers }), row.cells[grant], fileOf(f, row.file));
        cells++;
        if (problem) wrong.push(`${route} × ${grant} (${row.cells[grant]}): ${problem}`);
      }
    }
    const visitOf: Record<LinkGrant, string> = { ...visits, 'no link': BOGUS };
    for (const [route, row] of Object.entries(LINK_ROUTES)) {
      for (const grant of LINK_GRANTS) {
        const problem = await judge(await row.ask(bystander!, visitOf[grant], f), row.cells[grant], fileOf(f, row.file));
        cells++;
        if (problem) wrong.push(`${route} × ${grant} (${row.cells[grant]}): ${problem}`);
      }
    }
    expect(cells).toBe(Object.keys(SESSION_ROUTES).length * SESSION_GRANTS.length + Object.keys(LINK_ROUTES).length * LINK_GRANTS.length);
    expect(wrong).toEqual([]);
  });
});
