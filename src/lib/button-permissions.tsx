/**
 * Page button permissions (spec §6): the server lists the codes the caller holds
 * (`GET /api/menu/pagePermissions`). A button is hidden when its code is missing from the list; when
 * the list is empty every button is shown. This is the one place that rule lives: every gated button
 * uses `usePermission` or `<Permission>`.
 */
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import type { PagePermission } from '../../common/api/types';
import { usePagePermissionsQuery } from './data/queries';

/** null until loaded: nothing gated shows before the list is known (no flash of forbidden buttons). */
export const pagePermissionsAtom = atom<ReadonlySet<string> | null>(null);

/** The pure rule, shared by the hook and by tests. */
export function isPermitted(codes: ReadonlySet<string> | null, code: string): boolean {
  if (codes === null) return false;
  return codes.size === 0 || codes.has(code);
}

export function permissionCodes(list: readonly PagePermission[] | unknown): ReadonlySet<string> {
  return new Set((Array.isArray(list) ? (list as PagePermission[]) : []).map((p) => p.code));
}

/**
 * Publishes the caller's list (from the data layer: cached offline, refreshed online); mounted by the
 * main layout.
 */
export function usePagePermissionsLoader(): void {
  const set = useSetAtom(pagePermissionsAtom);
  const query = usePagePermissionsQuery();
  useEffect(() => {
    if (query.data) set(permissionCodes(query.data));
    // The server refused and the API client has told the user: show everything rather than lock them out of their files.
    else if (query.isError) set(new Set());
    // Not known yet (another account's list must not linger): nothing gated shows.
    else set(null);
  }, [query.data, query.isError, set]);
}

export function usePermission(code: string): boolean {
  return isPermitted(useAtomValue(pagePermissionsAtom), code);
}

/** For lists of gated items (menus, toolbars): one check function instead of a hook per item. */
export function usePermissionCheck(): (code: string) => boolean {
  const codes = useAtomValue(pagePermissionsAtom);
  return (code: string) => isPermitted(codes, code);
}

/** Renders its children only when the caller holds `code`. */
export function Permission({ code, children }: { code: string; children: ReactNode }) {
  return usePermission(code) ? <>{children}</> : null;
}
