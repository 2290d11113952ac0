/**
 * Where a search can look: everywhere the user may see (统一搜索), or one personal category or space
 * (搜索). Only the modules the tenant offers (the menu) are listed.
 */
import { FILE_PAGE_CATEGORY, type MenuItem, type SpaceInfo } from '../../../../common/api/types';
import { KEYWORD_QUERY_PARAM } from '../file-locations';

export interface SearchScope {
  key: string;
  label: string;
  /** The search page URL for a keyword in this scope. */
  url: (keyword: string) => string;
}

/** No keyword yet: the scope's page, ready for one. */
function withKeyword(path: string, keyword: string, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...(keyword ? { [KEYWORD_QUERY_PARAM]: keyword } : {}), ...extra }).toString();
  return query ? `${path}?${query}` : path;
}

function menuCodes(items: readonly MenuItem[], into = new Set<string>()): Set<string> {
  for (const item of items) {
    into.add(item.code);
    if (item.children) menuCodes(item.children, into);
  }
  return into;
}

/** The scopes offered: 全部 first, then the categories and spaces of the menu, then each group. */
export function searchScopes(menu: readonly MenuItem[] | null, publicSpace: SpaceInfo | null, groups: readonly SpaceInfo[]): SearchScope[] {
  // Before the menu is known, offer what every tenant has.
  const codes = menu ? menuCodes(menu) : new Set(['file-personal']);
  const category = (key: string, label: string, value: number): SearchScope => ({
    key,
    label,
    url: (k) => withKeyword('/main/file/search', k, { category: String(value) }),
  });
  const space = (s: SpaceInfo, label: string): SearchScope => ({ key: `space:${s.id}`, label, url: (k) => withKeyword('/main/file/search', k, { spaceId: s.id }) });
  const scopes: SearchScope[] = [{ key: 'all', label: '全部', url: (k) => withKeyword('/main/file/unifiedSearch', k) }];
  if (codes.has('file-personal') || !menu) scopes.push(category(`category:${FILE_PAGE_CATEGORY.personal}`, '个人文件', FILE_PAGE_CATEGORY.personal));
  if (codes.has('file-backups')) scopes.push(category(`category:${FILE_PAGE_CATEGORY.backups}`, '同步文件', FILE_PAGE_CATEGORY.backups));
  if (codes.has('file-share')) scopes.push(category(`category:${FILE_PAGE_CATEGORY.share}`, '共享文件', FILE_PAGE_CATEGORY.share));
  if (codes.has('file-other')) scopes.push(category(`category:${FILE_PAGE_CATEGORY.other}`, '交换区', FILE_PAGE_CATEGORY.other));
  if (codes.has('file-public') && publicSpace) scopes.push(space(publicSpace, '公共空间'));
  if (codes.has('group')) for (const g of groups) scopes.push(space(g, `群组：${g.name}`));
  return scopes;
}

/** The key of the scope a search page shows (unified, or its category / space). */
export function currentScopeKey(unified: boolean, scope?: { category: number; spaceId: string | null }): string {
  if (unified || !scope) return 'all';
  return scope.spaceId ? `space:${scope.spaceId}` : `category:${scope.category}`;
}
