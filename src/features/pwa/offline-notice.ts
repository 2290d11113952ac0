/**
 * Where 已可离线使用 may be said. The service worker finishes its first caching whenever it does —
 * often while the user is still signing in — and the news means nothing on the way in: on the login
 * screens and the password change the user is asked for (spec §4) the notice waits, and shows once
 * they are inside the app. `/` only redirects.
 */
const HOLDING_PATHS: readonly string[] = ['/', '/login', '/initialPswChange', '/passwordChage'];

export function mayTellOfflineReady(pathname: string): boolean {
  const path = pathname.split(/[?#]/, 1)[0]!.replace(/\/+$/, '') || '/';
  return !HOLDING_PATHS.some((p) => path === p || (p === '/login' && path.startsWith('/login/')));
}
