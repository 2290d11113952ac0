/**
 * The menu route list saved from the server menu (spec §2 route guard). The guard itself reads it
 * later; for now the layout saves it whenever the menu loads.
 */
import type { MenuItem } from '../../common/api/types';
import { getAppStorage } from './storage';

const MENU_ROUTES_KEY = 'menuRoutes';

/** Every url of the menu tree, parents and children, without duplicates. */
export function menuRoutesOf(items: readonly MenuItem[]): string[] {
  const out = new Set<string>();
  const walk = (list: readonly MenuItem[]): void => {
    for (const item of list) {
      if (item.url) out.add(item.url);
      if (item.children) walk(item.children);
    }
  };
  walk(items);
  return [...out];
}

export function saveMenuRoutes(items: readonly MenuItem[]): void {
  getAppStorage().set(MENU_ROUTES_KEY, menuRoutesOf(items));
}

/** null when no menu was saved (then the guard allows navigation, spec §2). */
export function loadMenuRoutes(): string[] | null {
  const routes = getAppStorage().get<unknown>(MENU_ROUTES_KEY);
  return Array.isArray(routes) ? routes.filter((r): r is string => typeof r === 'string') : null;
}
