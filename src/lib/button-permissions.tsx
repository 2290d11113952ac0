/**
 * Page button permissions (spec §6): the server lists the codes the caller holds
 * (`GET /api/menu/pagePermissions`). A button is hidden when its code is missing from the list; when
 * the list is empty every button is shown. This is the one place that rule lives: every gated button
 * uses `usePermission` or `<Permission>`.
 */
import { atom, useAtomValue, useSetAtom } from 'jotai';
import { useEffect, type ReactNode } from 'react';
import { API } from '../../common/api/paths';
import type { PagePermission } from '../../common/api/types';
import { api } from './api';

/** null until loaded: nothing gated shows before the list is known (no flash of forbidden buttons). */
export const pagePermissionsAtom = atom<ReadonlySet<string> | null>(null);

/** The pure rule, shared by the hook and by tests. */
export function isPermitted(codes: ReadonlySet<string> | null, code: string): boolean {
  if (codes === null) return false;
  return codes.size === 0 || codes.has(code);
}

export async function fetchPagePermissions(): Promise<ReadonlySet<string>> {
  const list = await api.get<PagePermission[]>(API.pagePermissions);
  return new Set((Array.isArray(list) ? list : []).map((p) => p.code));
}

/** Loads the list once per session; mounted by the main layout. Call again after a login. */
export function usePagePermissionsLoader(): void {
  const set = useSetAtom(pagePermissionsAtom);
  useEffect(() => {
    let alive = true;
    fetchPagePermissions().then(
      (codes) => alive && set(codes),
      // The API client has already told the user; show everything rather than lock them out of their files.
      () => alive && set(new Set()),
    );
    return () => {
      alive = false;
    };
  }, [set]);
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
