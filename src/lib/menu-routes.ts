/**
 * The menu route list saved from the server menu (spec §2 route guard). It lives in the app storage
 * (so a reload keeps guarding before the menu is fetched again) and is observable, so the guard
 * re-checks the current page as soon as a freshly loaded menu is saved.
 */
import { useSyncExternalStore } from 'react';
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

const listeners = new Set<() => void>();
/** undefined until first read from storage. */
let current: string[] | null | undefined;

function publish(routes: string[] | null): void {
  current = routes;
  for (const l of [...listeners]) l();
}

/**
 * Saves the menu's routes. The same routes as saved already (every page load: the menu comes from the
 * cache, then the server, mostly unchanged) change nothing: a new array would re-render the guard,
 * and everything under it, synchronously in the middle of the shell's first render.
 */
export function saveMenuRoutes(items: readonly MenuItem[]): void {
  const routes = menuRoutesOf(items);
  const saved = loadMenuRoutes();
  if (saved && saved.length === routes.length && saved.every((route, i) => route === routes[i])) return;
  getAppStorage().set(MENU_ROUTES_KEY, routes);
  publish(routes);
}

/** Forgets the saved menu (logout, or another account logging in). */
export function clearMenuRoutes(): void {
  getAppStorage().remove(MENU_ROUTES_KEY);
  publish(null);
}

/** null when no menu was saved (then the guard allows navigation, spec §2). */
export function loadMenuRoutes(): string[] | null {
  if (current === undefined) {
    const routes = getAppStorage().get<unknown>(MENU_ROUTES_KEY);
    current = Array.isArray(routes) ? routes.filter((r): r is string => typeof r === 'string') : null;
  }
  return current;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The saved menu routes, re-rendering when they change. */
export function useMenuRoutes(): string[] | null {
  return useSyncExternalStore(subscribe, loadMenuRoutes);
}
