import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ERRORS } from '../../common/api/errors';
import {
  DEVICE_PASSWORD_NAME_MAX,
  DEVICE_PASSWORDS_MAX,
  type DevicePasswordCreated,
  type DevicePasswordInfo,
  type DevicePasswordList,
} from '../../common/api/device-passwords';
import type { DevicePasswordsTable, UsersTable } from '../db/schema';
import { AppError } from '../http/app-error';
import { newId } from '../ids';
import type { DevicePasswordRepository } from '../repositories/device-password-repository';
import { actionLog, target } from './action-log/recorder';
import type { Caller } from './caller';

/** No look-alikes (0/o, 1/l): people copy these by eye into Finder's dialog. 32 letters = 5 bits each. */
const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const LENGTH = 40;
const GROUP = 5;
/** The first characters find the row; the other 32 (160 bits) are the secret. */
const PUBLIC_ID_LENGTH = 8;

/** Last use is written at most this often per password (per process): never a write per WebDAV request. */
export const LAST_USE_EVERY_MS = 60_000;

/**
 * The stored hash. A fast hash is right here, unlike login passwords (scrypt, password-hash.ts): the
 * password is ours, 200 random bits, so there is nothing for a slow hash to protect against (no
 * dictionary to try, 2^160 secrets per row); and a WebDAV client sends it with EVERY request (Basic
 * auth), where scrypt's 32 MiB and tens of milliseconds would cost more than the request itself.
 */
function hashOf(normalized: string): Buffer {
  return createHash('sha256').update(normalized).digest();
}

/** Compared against when no row matched, so a miss spends the same time as a hit. */
const NO_MATCH = hashOf('');

/** A new password, grouped for reading: `xxxxx-xxxxx-…` (DEVICE_PASSWORD_FORMAT). */
export function generateDevicePassword(): string {
  // 256 is a multiple of 32: each byte's low 5 bits are uniform.
  const chars = [...randomBytes(LENGTH)].map((b) => ALPHABET[b & 31]);
  const groups: string[] = [];
  for (let i = 0; i < LENGTH; i += GROUP) groups.push(chars.slice(i, i + GROUP).join(''));
  return groups.join('-');
}

/** The password as stored and looked up: dashes and spaces dropped, lower case; null when it cannot be one of ours. */
export function normalizeDevicePassword(input: string): string | null {
  const s = input.replace(/[-\s]/g, '').toLowerCase();
  if (s.length !== LENGTH) return null;
  for (const c of s) if (!ALPHABET.includes(c)) return null;
  return s;
}

function infoOf(row: DevicePasswordsTable): DevicePasswordInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
    lastUsedAddress: row.last_used_address,
  };
}

export interface DevicePasswordServiceDeps {
  repo: DevicePasswordRepository;
  /** The tenant's WebDAV switch (系统配置). */
  davEnabled: (tenantId: string) => Promise<boolean>;
  /** PUBLIC_BASE_URL ('' = the client's own origin). */
  publicBaseUrl: string;
  onError: (err: unknown, message: string) => void;
}

/** Who a right device password belongs to. */
export interface DevicePasswordMatch {
  user: UsersTable;
  passwordId: string;
}

/**
 * 设备密码 (issue 39): create (the password shown once), list, revoke, and the check every WebDAV
 * request makes (server/dav/dav-auth.ts).
 *
 * Nothing is cached: each check is one indexed statement (password and owner joined), so a revoke —
 * or a lock, or a deleted account — holds from the very next request in every server process, with
 * no cache to drop across the event bus.
 */
export class DevicePasswordService {
  /** Passwords whose last use this process is writing or wrote, and when: the coalescing. */
  private readonly touched = new Map<string, number>();

  constructor(private readonly deps: DevicePasswordServiceDeps) {}

  async list(caller: Caller): Promise<DevicePasswordList> {
    const rows = await this.deps.repo.listLive(caller.tenantId, caller.userId);
    return {
      items: rows.map(infoOf),
      enabled: await this.deps.davEnabled(caller.tenantId),
      username: caller.username,
      davUrl: `${this.deps.publicBaseUrl.replace(/\/+$/, '')}/dav/`,
    };
  }

  async create(caller: Caller, rawName: string, now = Date.now()): Promise<DevicePasswordCreated> {
    const name = rawName.trim();
    const entry = { action: 'account.devicePasswordCreate' as const, targets: [target('devicePassword', '', name)] };
    actionLog.record(entry);
    const live = await this.deps.repo.listLive(caller.tenantId, caller.userId);
    if (!name || [...name].length > DEVICE_PASSWORD_NAME_MAX || live.some((r) => r.name === name)) throw new AppError(ERRORS.DEVICE_PASSWORD_NAME_INVALID);
    if (live.length >= DEVICE_PASSWORDS_MAX) throw new AppError(ERRORS.DEVICE_PASSWORD_LIMIT);
    const password = generateDevicePassword();
    const normalized = normalizeDevicePassword(password)!;
    const row: DevicePasswordsTable = {
      id: newId(),
      tenant_id: caller.tenantId,
      user_id: caller.userId,
      public_id: normalized.slice(0, PUBLIC_ID_LENGTH),
      name,
      secret_hash: hashOf(normalized).toString('hex'),
      created_at: now,
      last_used_at: null,
      last_used_address: null,
      revoked_at: null,
    };
    await this.deps.repo.insert(row);
    entry.targets = [target('devicePassword', row.id, name)];
    return { ...infoOf(row), password };
  }

  async revoke(caller: Caller, id: string, now = Date.now()): Promise<void> {
    const entry = { action: 'account.devicePasswordRevoke' as const, targets: [target('devicePassword', id, '')] };
    actionLog.record(entry);
    const row = await this.deps.repo.revoke(caller.tenantId, caller.userId, id, now);
    if (!row) throw new AppError(ERRORS.DEVICE_PASSWORD_NOT_FOUND);
    entry.targets = [target('devicePassword', row.id, row.name)];
    this.touched.delete(row.id);
  }

  /**
   * The owner of a live device password, when `password` is one and `username` names its owner
   * (case-insensitive; the password alone picks the tenant, so namesakes in other tenants do not
   * matter); null otherwise. Constant-time comparison of the hashes. Records the last use, coalesced.
   */
  async verify(username: string, password: string, address: string, now = Date.now()): Promise<DevicePasswordMatch | null> {
    const normalized = normalizeDevicePassword(password);
    const found = normalized ? await this.deps.repo.findLiveByPublicId(normalized.slice(0, PUBLIC_ID_LENGTH)) : undefined;
    const given = hashOf(normalized ?? password);
    const stored = found ? Buffer.from(found.password.secret_hash, 'hex') : NO_MATCH;
    const hashMatches = stored.length === given.length && timingSafeEqual(stored, given) && found !== undefined;
    if (!found || !hashMatches) return null;
    if (found.user.username.trim().toLowerCase() !== username.trim().toLowerCase()) return null;
    await this.noteUse(found.password, address, now);
    return { user: found.user, passwordId: found.password.id };
  }

  /** Writes the last use when the stored one is a minute old and this process is not already writing it. */
  private async noteUse(row: DevicePasswordsTable, address: string, now: number): Promise<void> {
    const stored = row.last_used_at ?? -Infinity;
    const mine = this.touched.get(row.id) ?? -Infinity;
    if (now - Math.max(stored, mine) < LAST_USE_EVERY_MS) return;
    // Keeps the map to the passwords in use this minute.
    for (const [id, at] of this.touched) if (now - at >= LAST_USE_EVERY_MS) this.touched.delete(id);
    this.touched.set(row.id, now);
    try {
      await this.deps.repo.touch(row.id, now, address || null);
    } catch (err) {
      // The request goes on: a missed last-use time is not worth refusing a signed-in client.
      this.deps.onError(err, 'device password last use not written');
    }
  }
}
