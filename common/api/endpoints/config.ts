import { Type } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import type { ClientVersion, HomeUrl, MenuItem, PagePermission, SystemConfig, TenantConfig } from '../types';

/** Spec §7 config and menu calls, the desktop's update check, and the tenant's pictures (answers in ../types.ts). */

/**
 * A tenant picture's URL (logoUrlOf / backgroundUrlOf on the server): `t` the tenant, `v` its version,
 * which changes with the picture, so the answer may be kept long.
 */
export const TenantPictureQuery = Type.Object({ t: Type.Optional(Type.String({ maxLength: 64 })), v: Type.Optional(Type.Integer()) });

/** 3 = the internal build, 4 = the public-network build (spec §1); each has its own release (client-releases.ts). */
export const ClientVersionQuery = Type.Object({ clientType: Type.Enum([3, 4], { type: 'integer' }) });

const pub = 'public' as const;
/** The boot data the forced password change screen needs. */
const duringChange = 'duringPasswordChange' as const;

export const CONFIG = {
  /** Brand, logo and login background: shown before login, so public. */
  systemConfig: endpoint({ method: 'GET', path: API.systemConfig, access: pub, action: null, response: data<SystemConfig>() }),
  /** The tenant's logo (our SVG, or the WebP the server encoded): public like the config that links to it. */
  logo: endpoint({ method: 'GET', path: API.logo, access: pub, action: null, query: TenantPictureQuery, response: bytes }),
  /** The login page's background (WebP): public like the logo. */
  loginBackground: endpoint({ method: 'GET', path: API.loginBackground, access: pub, action: null, query: TenantPictureQuery, response: bytes }),
  /** The desktop client's update check, made before anyone logs in (spec §1). */
  clientVersion: endpoint({ method: 'GET', path: API.clientVersion, access: pub, action: null, query: ClientVersionQuery, response: data<ClientVersion>() }),
  tenantConfig: endpoint({ method: 'GET', path: API.tenantConfig, access: duringChange, action: null, response: data<TenantConfig>() }),
  menu: endpoint({ method: 'GET', path: API.menu, access: duringChange, action: null, response: data<MenuItem[]>() }),
  /** The page button permissions (spec §3). */
  pagePermissions: endpoint({ method: 'GET', path: API.pagePermissions, access: 'member', action: null, response: data<PagePermission[]>() }),
  homeUrl: endpoint({ method: 'GET', path: API.homeUrl, access: duringChange, action: null, response: data<HomeUrl>() }),
  /**
   * Ours: the load balancer's health check (docs/cluster.md). Answers as soon as this process's HTTP
   * server and event loop do; it does not ask the database, which every process shares: a database
   * outage would take every process out of rotation and turn the API's coded errors into the
   * balancer's bare 503s.
   */
  health: endpoint({ method: 'GET', path: '/api/health', access: pub, action: null, response: data<{ status: 'ok' }>() }),
};
