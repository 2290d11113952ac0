/**
 * What one file page lists and offers: the generic file browser (FileBrowser.tsx) is configured per
 * page with one of these, so every page shares the same table, menus and dialogs.
 */
import type { FileEntry, SpaceRole } from '../../../common/api/types';
import { keywordSearch, listFavorites, listFiles, listRecycleBin, listSharedFiles, unifiedSearch, type FolderScope } from './files-api';
import type { PageLoader } from './use-entry-pages';
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

/** The page loader for the source at folder `dir` with `sort`; null when there is nothing to list yet. */
export function loaderFor(source: BrowserSource, dir: string | null, sort: SortState): PageLoader<FileEntry> | null {
  switch (source.mode) {
    case 'folder':
      return source.via === 'share' ? (cursor, signal) => listSharedFiles(dir, sort, cursor, signal) : (cursor, signal) => listFiles(source.scope, dir, sort, cursor, signal);
    case 'favorite':
      return (cursor, signal) => listFavorites(cursor, signal);
    case 'recycle':
      return (cursor, signal) => listRecycleBin(cursor, signal);
    case 'search': {
      const keyword = source.keyword.trim();
      if (!keyword) return null;
      if (source.unified) return (cursor, signal) => unifiedSearch({ keyword, cursor: cursor ?? undefined }, signal);
      return (cursor, signal) =>
        keywordSearch({ keyword, category: source.scope?.spaceId ? undefined : source.scope?.category, spaceId: source.scope?.spaceId ?? undefined, cursor: cursor ?? undefined }, signal);
    }
  }
}
