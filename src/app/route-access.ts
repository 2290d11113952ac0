/**
 * The spec §2 route guard rule, as a pure function (the component is RouteGuard.tsx):
 *  - login paths (/login, /login/{id}) and the public pages are always allowed;
 *  - unifiedSearch is always allowed;
 *  - when no menu was saved, navigation is allowed;
 *  - otherwise a path is allowed when its first two or its first three segments are a route of the
 *    saved menu; everything else goes to /error.
 * Parent paths that only redirect to their default child (/main, /main/file, …) pass: the child they
 * redirect to is checked in turn.
 */
import { MAIN_DEFAULTS } from './route-table';

export const LOGIN_PATH = '/login';
export const NOT_ALLOWED_PATH = '/error';

/** Top-level pages reachable without a menu entry (they are not part of the sidebar). */
export const PUBLIC_PATHS: readonly string[] = [
  '/',
  '/error',
  '/permissionDenied',
  '/downloadExceeded',
  '/downLoadM',
  '/initialPswChange',
  '/passwordChage',
  '/openShareLink',
  '/shareLink',
];

const ALWAYS_ALLOWED_SEGMENT = 'unifiedSearch';

function segmentsOf(path: string): string[] {
  return path.split(/[?#]/, 1)[0]!.split('/').filter(Boolean);
}

function normalize(path: string): string {
  return '/' + segmentsOf(path).join('/');
}

export function isLoginPath(pathname: string): boolean {
  const p = normalize(pathname);
  return p === LOGIN_PATH || p.startsWith(LOGIN_PATH + '/');
}

/** The saved menu's routes, normalised, once per list (the guard asks on every render of the app). */
const normalizedSets = new WeakMap<readonly string[], ReadonlySet<string>>();
function normalizedSet(menuRoutes: readonly string[]): ReadonlySet<string> {
  let set = normalizedSets.get(menuRoutes);
  if (!set) normalizedSets.set(menuRoutes, (set = new Set(menuRoutes.map(normalize))));
  return set;
}

export function isRouteAllowed(pathname: string, menuRoutes: readonly string[] | null): boolean {
  const path = normalize(pathname);
  if (isLoginPath(path) || PUBLIC_PATHS.includes(path)) return true;
  const segments = segmentsOf(path);
  if (segments.includes(ALWAYS_ALLOWED_SEGMENT)) return true;
  if (menuRoutes === null) return true;
  if (path in MAIN_DEFAULTS) return true;
  const saved = normalizedSet(menuRoutes);
  return [2, 3].some((n) => segments.length >= n && saved.has('/' + segments.slice(0, n).join('/')));
}
