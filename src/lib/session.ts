/** Session-level calls shared by several features. */
import { AUTH } from '../../common/api/endpoints/auth';
import { CONFIG } from '../../common/api/endpoints/config';
import { api } from './api';
import { endAccountSession } from './data/session';
import { DEFAULT_HOME_URL, isSafeRelativeUrl } from './home-url';

export { DEFAULT_HOME_URL, isSafeRelativeUrl };

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

