import { describe, expect, it } from 'vitest';
import type { MenuItem, SpaceInfo } from '../../../common/api/types';
import { forgetSearches, recentSearches, rememberSearch, RECENT_SEARCHES_MAX } from '../../../src/features/files/search/recent-searches';
import { currentScopeKey, searchScopes } from '../../../src/features/files/search/search-scopes';

const menu = (codes: string[]): MenuItem[] => [{ code: 'file', name: '文件', url: '/main/file/personal', children: codes.map((code) => ({ code, name: code, url: `/${code}` })) }];
const space = (id: string, name: string, kind: 'group' | 'public'): SpaceInfo => ({ id, name, kind } as SpaceInfo);

describe('search scopes', () => {
  it('offers 全部 and the categories and spaces of the menu, each with its URL', () => {
    const scopes = searchScopes(menu(['file-personal', 'file-other', 'file-public', 'group']), space('p', '公共', 'public'), [space('g1', '研发', 'group')]);
    expect(scopes.map((s) => s.label)).toEqual(['全部', '个人文件', '交换区', '公共空间', '群组：研发']);
    expect(scopes[0]!.url('报告')).toBe('/main/file/unifiedSearch?keyword=%E6%8A%A5%E5%91%8A');
    expect(scopes[2]!.url('a')).toBe('/main/file/search?keyword=a&category=3');
    expect(scopes[4]!.url('a')).toBe('/main/file/search?keyword=a&spaceId=g1');
    expect(scopes[0]!.url('')).toBe('/main/file/unifiedSearch');
  });
  it('leaves out modules the tenant turned off', () => {
    expect(searchScopes(menu(['file-personal']), space('p', '公共', 'public'), [space('g', 'x', 'group')]).map((s) => s.key)).toEqual(['all', 'category:1']);
  });
  it('names the scope a page shows', () => {
    expect(currentScopeKey(true)).toBe('all');
    expect(currentScopeKey(false, { category: 3, spaceId: null })).toBe('category:3');
    expect(currentScopeKey(false, { category: 1, spaceId: 'g1' })).toBe('space:g1');
  });
});

describe('recent searches', () => {
  it('keeps the newest first, once each, per user, at most ten', () => {
    for (let i = 0; i < 12; i++) rememberSearch('u1', `k${i}`);
    rememberSearch('u1', 'k5');
    const list = recentSearches('u1');
    expect(list).toHaveLength(RECENT_SEARCHES_MAX);
    expect(list[0]).toBe('k5');
    expect(list.filter((k) => k === 'k5')).toHaveLength(1);
    expect(recentSearches('u2')).toEqual([]);
    expect(forgetSearches('u1', 'k5')).not.toContain('k5');
    expect(forgetSearches('u1')).toEqual([]);
  });
});
