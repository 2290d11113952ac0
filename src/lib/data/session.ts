/**
 * The account whose cache this tab shows, and what happens when a session begins or ends. The
 * server is the only authority on who is signed in: the pointer is (re)set from user details, and
 * every way a session ends — logout, 401, 400sec-core-301 — wipes that account's cache.
 */
import { ACCOUNT_PICTURE_CACHE } from '../../../common/api/offline-caches';
import { clearMenuRoutes } from '../menu-routes';
import { forgetAccount, saveAccount, savedAccount, sameAccount, type CacheAccount } from './account';
import { CachePersistence } from './persistence';
import { queryClient } from './query-client';

export const cachePersistence = new CachePersistence(queryClient);

/** The server confirmed who is signed in: show (and keep) that account's partition. */
export async function confirmAccount(account: CacheAccount): Promise<void> {
  if (!sameAccount(savedAccount(), account)) saveAccount(account);
  await cachePersistence.useAccount(account);
}

/**
 * A new login: nothing cached is shown until the server says whose session it is (the previous
 * account's partition stays on disk for its owner, unread).
 */
export async function beginLogin(): Promise<void> {
  signedInThisPage = true;
  forgetAccount();
  clearMenuRoutes();
  await cachePersistence.useAccount(null);
}

let signedInThisPage = false;

/**
 * Whether the account was signed in by this page (password or SMS login just now) rather than found
 * signed in when the app started: the 手势密码 is asked at start, not right after a login.
 */
export function signedInInThisPage(): boolean {
  return signedInThisPage;
}

const endListeners = new Set<() => void>();

/** Called whenever a session ends (logout, 401, 400sec-core-301): e.g. the notices stop their stream and polling. */
export function onAccountSessionEnd(listener: () => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/** The session is over (logout, or the server ended it): this account's cache goes, memory and disk. */
export async function endAccountSession(): Promise<void> {
  for (const listener of [...endListeners]) listener();
  const account = savedAccount();
  forgetAccount();
  clearMenuRoutes();
  await cachePersistence.wipe(account);
  // The service worker's copies of this account's thumbnails go too (a shared machine, another user next).
  if (typeof caches !== 'undefined') await caches.delete(ACCOUNT_PICTURE_CACHE).catch(() => false);
}
