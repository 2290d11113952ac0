import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';

/**
 * 设备密码 (issue 39): passwords for WebDAV clients (Explorer, Finder, rclone, office apps), which
 * cannot pass the web login's captcha. The server generates each (DEVICE_PASSWORD_FORMAT), shows it
 * once in the create answer and keeps only its SHA-256; a revoked one is refused from the next request,
 * in every server process. How WebDAV requests sign in with one: docs/webdav.md, "Authentication".
 */

/** At most this many live device passwords per user. */
export const DEVICE_PASSWORDS_MAX = 50;
export const DEVICE_PASSWORD_NAME_MAX = 64;

/**
 * What a device password looks like: 8 groups of 5 characters from a 32-letter alphabet without
 * look-alikes (no 0/o, 1/l), e.g. `k7m2p-xq4ra-9wd3f-h8ncs-tz5bv-6ej2g-yu7kq-m3p9a` (200 bits).
 * Clients may send it with or without the dashes, in any case.
 */
export const DEVICE_PASSWORD_FORMAT = 'xxxxx-xxxxx-xxxxx-xxxxx-xxxxx-xxxxx-xxxxx-xxxxx';

/** One of the caller's live device passwords (never the password itself). */
export interface DevicePasswordInfo {
  id: string;
  name: string;
  createdAt: number;
  /** Last WebDAV request signed in with it (to the minute: written at most once a minute), or null. */
  lastUsedAt: number | null;
  /** The client address of that request, or null. */
  lastUsedAddress: string | null;
}

/** 设备密码's card: the list, and what to type into a WebDAV client. */
export interface DevicePasswordList {
  items: DevicePasswordInfo[];
  /** The tenant's WebDAV switch (系统配置): off = every WebDAV request of the tenant is refused. */
  enabled: boolean;
  /** The user name to type beside a device password: the caller's account. */
  username: string;
  /**
   * The WebDAV address: absolute when the server knows its public address (PUBLIC_BASE_URL),
   * else the path (`/dav/`) the client puts after its own origin.
   */
  davUrl: string;
}

/** The create answer: the only time the password itself leaves the server. */
export interface DevicePasswordCreated extends DevicePasswordInfo {
  password: string;
}

/** The name says which device or program uses it (1-64 characters after trimming, unique among the caller's live ones). */
export const DevicePasswordCreateBody = Type.Object({ name: Type.String({ maxLength: 256 }) }, { additionalProperties: false });
export type DevicePasswordCreateRequest = Static<typeof DevicePasswordCreateBody>;

/** Another user's, or a revoked one → DEVICE_PASSWORD_NOT_FOUND (404). */
export const DevicePasswordRevokeBody = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
export type DevicePasswordRevokeRequest = Static<typeof DevicePasswordRevokeBody>;

export const DEVICE_PASSWORDS = {
  /** 账号安全 → 设备密码: the caller's live device passwords, newest first. */
  list: endpoint({ method: 'GET', path: API.devicePasswords, access: 'member', action: null, response: data<DevicePasswordList>() }),
  /** A new device password for the caller, shown once. */
  create: endpoint({
    method: 'POST',
    path: API.devicePasswordCreate,
    access: 'member',
    action: 'account.devicePasswordCreate',
    body: DevicePasswordCreateBody,
    response: data<DevicePasswordCreated>(),
  }),
  /** Revokes one of the caller's device passwords: its next WebDAV request is refused. */
  revoke: endpoint({
    method: 'POST',
    path: API.devicePasswordRevoke,
    access: 'member',
    action: 'account.devicePasswordRevoke',
    body: DevicePasswordRevokeBody,
    response: data<null>(),
  }),
};
