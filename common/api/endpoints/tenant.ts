import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import type { TenantAlias, TenantInfo, TenantListResponse, TenantSwitches } from '../tenant';

/**
 * Spec §7 tenant calls and admin switches (answers and rules in ../tenant.ts, including who is a
 * platform admin: the only callers who may name another tenant with `tenantId`). State-changing GETs
 * require the X-Client-Platform header (no cross-site GET can add it).
 */

const TenantId = Type.String({ minLength: 1, maxLength: 64 });
/** Base64 of a picture: at most the background's 8 MiB once decoded (and a data: prefix). */
const Picture = Type.String({ maxLength: 12 * 1024 * 1024 });

/** A tenant id or alias; absent = the default tenant. */
export const TenantAliasQuery = Type.Object({ id: Type.Optional(Type.String({ maxLength: 64 })) });

/** `?tenantId=` for a platform admin; others' own tenant without it. */
export const TenantQuery = Type.Object({ tenantId: Type.Optional(TenantId) }, { additionalProperties: false });
export type TenantResetQuery = Static<typeof TenantQuery>;

/**
 * Absent fields stay as they are. `alias`: letters, digits, `-` and `_`, 2–32, unique across tenants
 * case-insensitively; '' removes it. Pictures are base64 (a `data:` URL prefix is accepted): PNG, JPEG,
 * WebP or GIF judged by their bytes (never SVG), at most TENANT_LOGO_MAX_BYTES /
 * TENANT_BACKGROUND_MAX_BYTES, re-encoded by the server (WebP, the logo fitted into 512 px, the
 * background into 2560 × 1600).
 */
export const TenantUpdateBody = Type.Object(
  {
    tenantId: Type.Optional(TenantId),
    name: Type.Optional(Type.String({ maxLength: 256 })),
    brandName: Type.Optional(Type.String({ maxLength: 256 })),
    alias: Type.Optional(Type.String({ maxLength: 64 })),
    logo: Type.Optional(Picture),
    loginBackground: Type.Optional(Picture),
    /** The tenant's home page: one of HOME_PAGES (../tenant.ts), else TENANT_HOME_PAGE_INVALID. */
    homeUrl: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type TenantUpdateRequest = Static<typeof TenantUpdateBody>;

/** Form fields of the four on/off switches: `value=1` on, `value=0` off (the service refuses others). */
export const SwitchBody = Type.Object({ value: Type.String({ maxLength: 8 }), tenantId: Type.Optional(TenantId) });
export type SwitchForm = Static<typeof SwitchBody>;

/** Form fields of modify/syncTime: whole minutes, SYNC_TIME_MIN..SYNC_TIME_MAX. */
export const SyncTimeBody = Type.Object({ syncTime: Type.String({ maxLength: 8 }), tenantId: Type.Optional(TenantId) });
export type SyncTimeForm = Static<typeof SyncTimeBody>;

/**
 * JSON body of gesture/idleTime (ours, not in §7: JSON like every call the spec does not give as a
 * form): whole minutes, GESTURE_IDLE_MIN..GESTURE_IDLE_MAX (the service says the range in Chinese).
 */
export const GestureIdleBody = Type.Object({ idleTime: Type.Integer(), tenantId: Type.Optional(TenantId) }, { additionalProperties: false });
export type GestureIdleRequest = Static<typeof GestureIdleBody>;

const admin = 'admin' as const;

/** The admin switches (spec §7, form-encoded POSTs) → the tenant's switches after the change. */
/** The §7 switches take a form; a switch of ours takes JSON like every call §7 does not give as a form. */
function adminSwitch(path: string, encoding: 'form' | 'json' = 'form') {
  return endpoint({ method: 'POST', path, access: admin, action: 'tenant.settingChange', ...(encoding === 'form' ? { encoding } : {}), body: SwitchBody, response: data<TenantSwitches>() });
}

export const TENANT = {
  /** The login page's look (brand, background) by tenant id or alias: public, before any session. */
  alias: endpoint({ method: 'GET', path: API.tenantAlias, access: 'public', action: null, query: TenantAliasQuery, response: data<TenantAlias>() }),
  /** Any signed-in user of the tenant. */
  info: endpoint({ method: 'GET', path: API.tenantInfo, access: 'member', action: null, query: TenantQuery, response: data<TenantInfo>() }),
  /** Every tenant for a platform admin, the own one for a tenant admin. */
  list: endpoint({ method: 'GET', path: API.tenantList, access: admin, action: null, response: data<TenantListResponse>() }),
  /** JSON with the pictures inside, so the route takes bodies beyond the usual limit. */
  update: endpoint({ method: 'POST', path: API.tenantUpdate, access: admin, action: 'tenant.update', body: TenantUpdateBody, response: data<TenantInfo>() }),
  /** The generated logo again (a state change on GET, as the spec has it). */
  resetLogo: endpoint({ method: 'GET', path: API.tenantResetLogo, access: admin, action: 'tenant.resetLogo', query: TenantQuery, response: data<TenantInfo>() }),
  /** No login background (a state change on GET, as the spec has it). */
  resetBackground: endpoint({ method: 'GET', path: API.tenantResetBackground, access: admin, action: 'tenant.resetBackground', query: TenantQuery, response: data<TenantInfo>() }),
  switchGesture: adminSwitch(API.switchGesture),
  switchKeyCreate: adminSwitch(API.switchKeyCreate),
  switchPublicDownload: adminSwitch(API.switchPublicDownload),
  switchExchange: adminSwitch(API.switchExchange),
  /** WebDAV for the tenant's users (ours, issue 39; default on). */
  switchWebdav: adminSwitch(API.switchWebdav, 'json'),
  /** Minutes idle or hidden before the 手势密码 is asked again (ours, beside the gesture switch). */
  modifyGestureIdle: endpoint({ method: 'POST', path: API.gestureIdleTime, access: admin, action: 'tenant.settingChange', body: GestureIdleBody, response: data<TenantSwitches>() }),
  modifySyncTime: endpoint({ method: 'POST', path: API.modifySyncTime, access: admin, action: 'tenant.settingChange', encoding: 'form', body: SyncTimeBody, response: data<TenantSwitches>() }),
};
