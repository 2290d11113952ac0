/** Session-level calls shared by several features. */
import { AUTH } from '../../common/api/endpoints/auth';
import { CONFIG } from '../../common/api/endpoints/config';
import { api } from './api';
import { endAccountSession } from './data/session';

export const DEFAULT_HOME_URL = '/main/file/personal';

/** Ends the session on the server and wipes this account's cache; a failure is ignored (the user leaves anyway). */
export async function logout(): Promise<void> {
  // The next account to log in has its own menu and cache: never show it this one's.
  await endAccountSession();
  try {
    await api.call(AUTH.logout, undefined, { onError: () => undefined });
  } catch {
    // already logged out or offline: nothing to do
  }
}

export async function fetchHomeUrl(): Promise<string> {
  const url = await api.call(CONFIG.homeUrl);
  return isSafeRelativeUrl(url) ? url : DEFAULT_HOME_URL;
}

/** The home url for a page anyone may open (a share link): null when nobody is signed in (no redirect to /login). */
export async function fetchHomeUrlIfSignedIn(): Promise<string | null> {
  try {
    const url = await api.call(CONFIG.homeUrl, undefined, { onError: () => undefined });
    return isSafeRelativeUrl(url) ? url : DEFAULT_HOME_URL;
  } catch (e) {
    if ((e as { status?: number }).status === 401) return null;
    throw e;
  }
}

/** True for a same-origin relative path such as '/main/file/personal?dir=1' (not '//host', not 'http:'). */
export function isSafeRelativeUrl(url: unknown): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}
