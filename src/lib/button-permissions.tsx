/**
 * Page button permissions (spec §6): the server lists the codes the caller holds
 * (`GET /api/menu/pagePermissions`). A button is hidden when its code is missing from the list; when
 * the list is empty every button is shown. This is the one place that rule lives: every gated button
 * uses `usePermission` or `<Permission>`.
 */
import { useMemo, type ReactNode } from 'react';
import type { PagePermission } from '../../common/api/types';
import { usePagePermissionsQuery } from './data/queries';

/** The pure rule, shared by the hook and by tests. */
export function isPermitted(codes: ReadonlySet<string> | null, code: string): boolean {
  if (codes === null) return false;
  return codes.size === 0 || codes.has(code);
}

export function permissionCodes(list: readonly PagePermission[] | unknown): ReadonlySet<string> {
  return new Set((Array.isArray(list) ? (list as PagePermission[]) : []).map((p) => p.code));
}

const NO_CODES: ReadonlySet<string> = new Set();

/** What the permissions query's state means for the buttons (see usePagePermissionCodes). */
export function codesOfAnswer(data: readonly PagePermission[] | undefined, isError: boolean): ReadonlySet<string> | null {
  if (data) return permissionCodes(data);
  return isError ? NO_CODES : null;
}

/**
 * The caller's codes, read from the data layer (cached offline, refreshed online; the cache holds one
 * account's answers, so another account's list never shows). null while not known: nothing gated
 * shows, so forbidden buttons do not flash. After a refusal, none: the API client has told the user,
 * and every button shows rather than locking them out of their files.
 *
 * Read straight from the query, not copied into shared state by an effect: such a copy came one
 * commit late, and every gated toolbar rendered again right after the page's first commit (a cold
 * 个人文件 re-rendered its whole file browser for it, Lighthouse: total blocking time).
 */
export function usePagePermissionCodes(): ReadonlySet<string> | null {
  const { data, isError } = usePagePermissionsQuery();
  return useMemo(() => codesOfAnswer(data, isError), [data, isError]);
}

export function usePermission(code: string): boolean {
  return isPermitted(usePagePermissionCodes(), code);
}

/** For lists of gated items (menus, toolbars): one check function instead of a hook per item. */
export function usePermissionCheck(): (code: string) => boolean {
  const codes = usePagePermissionCodes();
  return (code: string) => isPermitted(codes, code);
}

/** Renders its children only when the caller holds `code`. */
export function Permission({ code, children }: { code: string; children: ReactNode }) {
  return usePermission(code) ? <>{children}</> : null;
}
