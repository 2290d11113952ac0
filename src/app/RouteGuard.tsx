import type { ReactNode } from 'react';
import { Redirect, useLocation } from 'wouter';
import { useMenuRoutes } from '../lib/menu-routes';
import { isRouteAllowed, NOT_ALLOWED_PATH } from './route-access';

/** Spec §2: paths outside the saved menu go to /error (the rule is in route-access.ts). */
export function RouteGuard({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const menuRoutes = useMenuRoutes();
  if (!isRouteAllowed(location, menuRoutes)) return <Redirect to={NOT_ALLOWED_PATH} replace />;
  return <>{children}</>;
}
