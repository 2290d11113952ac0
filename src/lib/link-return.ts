/**
 * The link page a visitor came from, for this tab (sessionStorage): the pages a link leads to
 * (/downloadExceeded) send them back there, never into the internal app's login.
 */
const KEY = 'share-link-page';

export function rememberLinkPage(path: string): void {
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    // storage refused (private mode): the page offers no way back, nothing else changes
  }
}

/** The last link page of this tab (a same-origin path), or null. */
export function lastLinkPage(): string | null {
  try {
    const path = sessionStorage.getItem(KEY);
    return path && /^\/(shareLink|downLoadM|openShareLink)\//.test(path) ? path : null;
  } catch {
    return null;
  }
}
