import type { ReactNode } from 'react';

/**
 * Placeholder for the spec §2 route guard (a later issue): it will allow login and public paths,
 * check other paths against the menu route list saved by src/lib/menu-routes.ts, and send the rest
 * to /error. For now every path is allowed.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  return <>{children}</>;
}
