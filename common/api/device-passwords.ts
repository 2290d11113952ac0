/**
 * 设备密码 (issue 39): limits, the password's format and the answers of the calls declared in
 * endpoints/device-passwords.ts (a declaration file reaches the web app as its entries only: constants
 * the app needs live here).
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
