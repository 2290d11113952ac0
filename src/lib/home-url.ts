/** The home page rule (spec §2), without the session's calls: the link pages' lean entry reads it too. */
export const DEFAULT_HOME_URL = '/main/file/personal';

/** True for a same-origin relative path such as '/main/file/personal?dir=1' (not '//host', not 'http:'). */
export function isSafeRelativeUrl(url: unknown): url is string {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}
