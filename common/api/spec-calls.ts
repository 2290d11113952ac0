import { API } from './paths';

/**
 * Every call of product spec §7, in the spec's order, with the method and body encoding it gives
 * (default POST + JSON; "form" where the spec says form-encoded; GET calls take a query string) and
 * the few payload fields it shows. Where the spec does not show the full path, `path` is ours (from
 * paths.ts) once the call is built, and null until then. `plannedIn` names the open issue that builds
 * a call not served yet; a served call carries none (the coverage test fails on a stale mark).
 *
 * SPEC-COVERAGE.md beside this file is generated from this list, the server's route registry (each
 * route's declaration: encoding and schemas) and the client's code (`npm run spec:coverage`, see
 * docs/spec-coverage.md); tests/server/spec-coverage.test.ts fails when it or the README's figures
 * are stale, when a served call's declaration disagrees with the spec's encoding, or on a stale mark.
 */
export interface SpecCall {
  group: string;
  /** The call as the spec names it (its path, or its short name where the path is not shown). */
  name: string;
  method: 'GET' | 'POST';
  path: string | null;
  encoding: 'json' | 'form' | 'query';
  /** Payload fields the spec names: in the query (GET) or the body (form, JSON) of the declaration. */
  fields?: readonly string[];
  /** A list the call takes whose field the spec does not name, by the values it shows (static data). */
  takesList?: readonly string[];
  plannedIn?: number;
}

const get = (group: string, path: string, plannedIn?: number): SpecCall => ({ group, name: path, method: 'GET', path, encoding: 'query', plannedIn });
const post = (group: string, path: string, plannedIn?: number): SpecCall => ({ group, name: path, method: 'POST', path, encoding: 'json', plannedIn });
const form = (group: string, path: string, plannedIn?: number): SpecCall => ({ group, name: path, method: 'POST', path, encoding: 'form', plannedIn });
/** A call whose full path the spec does not show: `path` is ours, or null until it is built. */
const unnamed = (group: string, name: string, method: 'GET' | 'POST', path: string | null, plannedIn?: number): SpecCall => ({
  group,
  name,
  method,
  path,
  encoding: method === 'GET' ? 'query' : 'json',
  plannedIn,
});

const CONFIG = 'Config and menu';
const NOTICES = 'Notices';
const TENANT = 'Tenant';
const DICT = 'Dictionary and static data';
const LOGIN = 'Login';
const USERS = 'Users';
const FILES = 'Files';
const SWITCHES = 'Admin switches';
const MESSAGES = 'File messages';

export const SPEC_CALLS: readonly SpecCall[] = [
  { ...get(CONFIG, API.clientVersion), fields: ['clientType'] },
  get(CONFIG, API.systemConfig),
  get(CONFIG, API.tenantConfig),
  get(CONFIG, API.menu),
  get(CONFIG, API.pagePermissions),
  get(CONFIG, API.homeUrl),
  get(CONFIG, API.canOperationForShare),

  get(NOTICES, API.noticeUnreadCount),
  post(NOTICES, API.sysMsgUnreadNum),
  // The spec names it in §7 Notices without a path; File messages lists /api/fileMsg/userUnReadNum: that one.
  unnamed(NOTICES, 'file notice unread', 'POST', API.fileMsgUnreadNum),

  get(TENANT, API.tenantAlias),
  get(TENANT, API.tenantResetLogo),
  get(TENANT, API.tenantResetBackground),
  post(TENANT, API.tenantUpdate),
  get(TENANT, API.tenantList),
  get(TENANT, API.tenantInfo),

  post(DICT, API.dictList),
  get(DICT, API.dictQueryByGroup),
  get(DICT, API.dictGroupGet),
  { ...unnamed(DICT, 'static data (quota, customerTelephone, validity)', 'POST', API.staticData), takesList: ['quota', 'customerTelephone', 'validity'] },

  form(LOGIN, API.login),
  post(LOGIN, API.logout),
  get(LOGIN, API.captcha),
  get(LOGIN, API.captchaValidate),
  get(LOGIN, API.smsSend),
  post(LOGIN, API.smsValidate),

  post(USERS, API.userSearch),
  post(USERS, API.userDetails),
  post(USERS, API.phoneValidate),
  { ...post(USERS, API.userInfoModify), fields: ['value', 'type', 'oldPassword'] },
  post(USERS, API.setRoles),
  get(USERS, API.getRoles),
  post(USERS, API.accountLock),
  post(USERS, API.accountUnlock),
  post(USERS, API.readAgreement),
  post(USERS, API.outerLoginSet),
  get(USERS, API.orgTree),
  get(USERS, API.orgUserList),
  get(USERS, API.orgGroupUserList),

  post(FILES, API.fileList),
  post(FILES, API.fileMultiList),
  post(FILES, API.shareFileList),
  post(FILES, API.fileCatalog),
  post(FILES, API.mkdir),
  post(FILES, API.rename),
  post(FILES, API.dirList),
  post(FILES, API.copy),
  post(FILES, API.move),
  post(FILES, API.removeFiles),
  get(FILES, API.keywordList),
  get(FILES, API.unProcessList),
  post(FILES, API.processedList),
  unnamed(FILES, 'keepOnUpload', 'GET', API.keepOnUpload),
  unnamed(FILES, 'giveUpUpload', 'GET', API.giveUpUpload),
  unnamed(FILES, 'keepOnDownload', 'GET', API.keepOnDownload),
  post(FILES, API.canBeUploadType),
  unnamed(FILES, 'checkFileSensitiveOrLock', 'POST', API.checkFileSensitiveOrLock),
  unnamed(FILES, 'checkSwap', 'POST', API.checkSwap),
  unnamed(FILES, 'fileSafe/check', 'POST', API.fileSafeCheck),
  unnamed(FILES, 'fileVersion/check', 'POST', API.fileVersionCheck),
  unnamed(FILES, 'multipleFile/check', 'POST', API.multipleFileCheck),
  post(FILES, API.createTxt),
  post(FILES, API.keepOnCreateTxt),
  post(FILES, API.relativePathDirCreate),
  post(FILES, API.secondUpload),
  post(FILES, API.syncContent),
  post(FILES, API.chunkExist),

  form(SWITCHES, API.switchGesture),
  form(SWITCHES, API.switchKeyCreate),
  form(SWITCHES, API.switchPublicDownload),
  form(SWITCHES, API.switchExchange),
  form(SWITCHES, API.modifySyncTime),

  form(MESSAGES, API.fileMsgMarkAllRead),
  form(MESSAGES, API.fileMsgList),
  post(MESSAGES, API.fileMsgDelete),
  post(MESSAGES, API.fileMsgMarkRead),
  post(MESSAGES, API.fileMsgUnreadNum),
  form(MESSAGES, API.fileMsgSearch),
];
