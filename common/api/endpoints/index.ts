import type { AnyEndpoint } from '../endpoint';
import { ACCOUNT } from './account';
import { ACTION_LOG } from './action-log';
import { APPLICATIONS } from './applications';
import { AUTH } from './auth';
import { CLIENT_RELEASES } from './client-releases';
import { CONFIG } from './config';
import { DEVICE_PASSWORDS } from './device-passwords';
import { DICTIONARIES } from './dictionaries';
import { DOWNLOADS } from './downloads';
import { FILE_STATES } from './file-states';
import { EXCHANGE } from './exchange';
import { FILES } from './files';
import { GESTURE } from './gesture';
import { GROUPS } from './groups';
import { LINKS } from './links';
import { NOTICES } from './notices';
import { ORG } from './org';
import { REPORTS } from './reports';
import { SHARES } from './shares';
import { PRE_UPLOAD } from './pre-upload';
import { TENANT } from './tenant';
import { USER_ADMIN } from './user-admin';
import { USER_IMPORT } from './user-import';
import { UPLOADS } from './uploads';
import { SYNC } from './sync';
import { DOCUMENTS } from './documents';

/**
 * Every declared endpoint, by domain. The server registers each domain's routes from its entries;
 * the tests walk this list (ROUTE_ACTIONS, access matrix, spec coverage). A new domain is one line here.
 */
export const DOMAINS = {
  account: ACCOUNT,
  actionLog: ACTION_LOG,
  applications: APPLICATIONS,
  auth: AUTH,
  clientReleases: CLIENT_RELEASES,
  config: CONFIG,
  devicePasswords: DEVICE_PASSWORDS,
  dictionaries: DICTIONARIES,
  documents: DOCUMENTS,
  downloads: DOWNLOADS,
  exchange: EXCHANGE,
  files: FILES,
  fileStates: FILE_STATES,
  gesture: GESTURE,
  groups: GROUPS,
  links: LINKS,
  notices: NOTICES,
  org: ORG,
  reports: REPORTS,
  shares: SHARES,
  preUpload: PRE_UPLOAD,
  tenant: TENANT,
  userAdmin: USER_ADMIN,
  userImport: USER_IMPORT,
  uploads: UPLOADS,
  sync: SYNC,
} as const;

export const ENDPOINTS: readonly AnyEndpoint[] = Object.values(DOMAINS).flatMap((domain) => Object.values(domain) as AnyEndpoint[]);
