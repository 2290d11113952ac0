import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import type { ClientRelease } from '../types';
import { ClientVersionQuery } from './config';

/**
 * 客户端版本 (issue 38): each tenant's desktop release per client type (3 internal, 4 public), set by
 * its admins in 系统配置; `GET /api/clientVersion/get` (CONFIG.clientVersion) answers it, and the
 * desktop's update flow downloads the installer from `installer`.
 */

/** What an admin saves for one client type; the installer is a file they uploaded through the engine. */
export const ClientReleaseSaveBody = Type.Object(
  {
    clientType: Type.Enum([3, 4], { type: 'integer' }),
    /** Dotted numbers, compared numerically by the desktop (1.10.0 > 1.9.3). */
    versionName: Type.String({ minLength: 1, maxLength: 32, pattern: '^\\d+(\\.\\d+){0,3}$' }),
    versionDesc: Type.String({ maxLength: 2000 }),
    isForce: Type.Boolean(),
    /** A file of the caller's tenant they may read (null: no installer yet). */
    fileId: Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ClientReleaseSaveRequest = Static<typeof ClientReleaseSaveBody>;

/** `t`: the tenant whose installer (absent: the caller's, else the default tenant). */
export const ClientInstallerQuery = Type.Object({ clientType: Type.Enum([3, 4], { type: 'integer' }), t: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false });

export const CLIENT_RELEASES = {
  /** Ours, admins: both client types' releases as 系统配置 shows them. */
  list: endpoint({ method: 'GET', path: API.clientReleaseList, access: 'admin', action: null, response: data<ClientRelease[]>() }),
  /** Ours, admins: sets one client type's release (action log: from → to). */
  save: endpoint({ method: 'POST', path: API.clientReleaseSave, access: 'admin', action: 'tenant.clientRelease', body: ClientReleaseSaveBody, response: data<ClientRelease>() }),
  /**
   * Ours: the installer's bytes (Range), public like the version check it follows — a desktop client
   * updates before anyone signs in. Only the file a release names is served, nothing else of the tenant.
   */
  installer: endpoint({ method: 'GET', path: API.clientInstaller, access: 'public', action: null, query: ClientInstallerQuery, response: bytes }),
};

export { ClientVersionQuery };
