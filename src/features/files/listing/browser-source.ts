/**
 * What one file page lists and offers: the generic file browser (FileBrowser.tsx) is configured per
 * page with one of these, so every page shares the same table, menus and dialogs.
 */
import type { FileEntry, SpaceRole } from '../../../../common/api/types';
import { keywordSearch, listFavorites, listFiles, listRecycleBin, listSharedFiles, unifiedSearch, type FolderScope } from '../files-api';
import type { Listing } from './use-entry-pages';
import type { SortState } from './sort-state';

export type BrowserSource =
  /** A folder tree: a personal category (via its list path) or a group/public space. */
  | {
      mode: 'folder';
      scope: FolderScope;
      via: 'list' | 'share';
      rootName: string;
      /** In a space: its root folder (what uploads target at the top level) and the caller's role. */
      space?: { id: string; rootId: string; role: SpaceRole | null };
    }
  | { mode: 'favorite' }
  | { mode: 'recycle' }
  /** Keyword search in one category or space, or unified across everything the caller may see. */
  | { mode: 'search'; keyword: string; unified: boolean; scope?: FolderScope };

/**
 * The listing of the source at folder `dir` with `sort` (its data-layer key and page loader); null
 * when there is nothing to list yet (a search without a keyword).
 */
export function listingFor(source: BrowserSource, dir: string | null, sort: SortState, opts: { sharerId?: string | null } = {}): Listing<FileEntry> | null {
  switch (source.mode) {
    case 'folder': {
      // 共享文件: what others share with the caller; at the top, optionally of one sharer.
      const sharerId = dir === null ? (opts.sharerId ?? null) : null;
      return source.via === 'share'
        ? { key: ['files', 'share', dir, sort, sharerId], load: (cursor, signal) => listSharedFiles(dir, sort, cursor, signal, sharerId) }
        : { key: ['files', 'folder', source.scope, dir, sort], load: (cursor, signal) => listFiles(source.scope, dir, sort, cursor, signal) };
    }
    case 'favorite':
      return { key: ['files', 'favorite'], load: (cursor, signal) => listFavorites(cursor, signal) };
    case 'recycle':
      return { key: ['files', 'recycle'], load: (cursor, signal) => listRecycleBin(cursor, signal) };
    case 'search': {
      const keyword = source.keyword.trim();
      if (!keyword) return null;
      if (source.unified) return { key: ['files', 'unifiedSearch', keyword], load: (cursor, signal) => unifiedSearch({ keyword, cursor: cursor ?? undefined }, signal) };
      const category = source.scope?.spaceId ? undefined : source.scope?.category;
      const spaceId = source.scope?.spaceId ?? undefined;
      return {
        key: ['files', 'search', keyword, category ?? null, spaceId ?? null],
        load: (cursor, signal) => keywordSearch({ keyword, category, spaceId, cursor: cursor ?? undefined }, signal),
      };
    }
  }
}

/** The keyword search of the page's own category or space (unified search for the others). */
export function searchUrl(source: BrowserSource, keyword: string): string {
  const params = new URLSearchParams({ keyword });
  if (source.mode === 'folder') {
    if (source.scope.spaceId) params.set('spaceId', source.scope.spaceId);
    else params.set('category', String(source.scope.category));
    return `/main/file/search?${params.toString()}`;
  }
  return `/main/file/unifiedSearch?${params.toString()}`;
}
