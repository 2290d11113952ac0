import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import type { DevicePasswordCreated, DevicePasswordList } from '../device-passwords';
import { API } from '../paths';

/**
 * 设备密码 (issue 39): passwords for WebDAV clients (Explorer, Finder, rclone, office apps), which
 * cannot pass the web login's captcha. The server generates each (DEVICE_PASSWORD_FORMAT in
 * ../device-passwords.ts, with the answers' shapes), shows it
 * once in the create answer and keeps only its SHA-256; a revoked one is refused from the next request,
 * in every server process. How WebDAV requests sign in with one: docs/webdav.md, "Authentication".
 */

/** The name says which device or program uses it (1-DEVICE_PASSWORD_NAME_MAX characters after trimming, unique among the caller's live ones). */
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
