import { createHash } from 'node:crypto';
import type { DavLockRow } from '../../repositories/dav-lock-repository';

/**
 * A lock as WebDAV sees it: a WebDAV lock (a dav_locks row), or the web app's 锁定 of an entry
 * (files.locked_by with no WebDAV lock of that person on it), shown as an exclusive depth-0 lock
 * without timeout whose token is derived from the entry and the person (stable, so a client that
 * discovered it can name it in If or UNLOCK).
 */
export interface ActiveLock {
  token: string;
  entryId: string;
  userId: string;
  scope: 'exclusive' | 'shared';
  deep: boolean;
  ownerXml: string | null;
  /** Null = no timeout (a web-app lock). */
  expiresAt: number | null;
  /** The web app's lock (no dav_locks row). */
  fromWebApp: boolean;
  /** This WebDAV lock set files.locked_by (its end clears it). */
  tookProductLock: boolean;
}

/** An active lock that covers a resource, `levels` folders above it (0 = on the resource itself). */
export interface CoveringLock extends ActiveLock {
  levels: number;
}

export const TOKEN_PREFIX = 'opaquelocktoken:';

/** The stable token of the web app's lock of `entryId` by `userId` (a name-based UUID, RFC 9562 §5.5 layout). */
export function webAppLockToken(entryId: string, userId: string): string {
  const h = createHash('sha1').update(`cloud-drive web lock\0${entryId}\0${userId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${TOKEN_PREFIX}${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export function fromRow(row: DavLockRow): ActiveLock {
  return {
    token: row.token,
    entryId: row.entry_id,
    userId: row.user_id,
    scope: row.scope,
    deep: row.deep === 1,
    ownerXml: row.owner_xml,
    expiresAt: row.expires_at,
    fromWebApp: false,
    tookProductLock: row.took_product_lock === 1,
  };
}

/** The web app's lock of an entry, as an ActiveLock; `ownerName` is the locker's nickname. */
export function webAppLock(entryId: string, lockedBy: string, ownerName: string): ActiveLock {
  return {
    token: webAppLockToken(entryId, lockedBy),
    entryId,
    userId: lockedBy,
    scope: 'exclusive',
    deep: false,
    ownerXml: escapeText(`${ownerName}（网页端锁定）`),
    expiresAt: null,
    fromWebApp: true,
    tookProductLock: false,
  };
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
