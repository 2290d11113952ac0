/**
 * Where an entry lives in the app's routes (spec §2), for 打开所在位置 from favorites, search results
 * and the like: a personal category's page, or a space's page, opened at the entry's folder.
 */
import { FILE_CATEGORY, type FileEntry } from '../../../common/api/types';
import { DIR_QUERY_PARAM } from './use-current-dir';

export const SPACE_QUERY_PARAM = 'space';
export const KEYWORD_QUERY_PARAM = 'keyword';

/** The page of a personal category (spec §3: any category other than 1, 2, 3 is synced files). */
export function categoryPage(category: number): string {
  switch (category) {
    case FILE_CATEGORY.personal:
      return '/main/file/personal';
    case FILE_CATEGORY.shared:
      return '/main/file/share';
    case FILE_CATEGORY.exchange:
      return '/main/file/other';
    default:
      return '/main/file/backups';
  }
}

/** The URL showing the folder that holds `entry` (or the folder itself, with `inside`). */
export function locationOf(entry: Pick<FileEntry, 'id' | 'parentId' | 'category' | 'spaceId' | 'isDir'>, publicSpaceId: string | null, inside = false): string {
  const dir = inside && entry.isDir ? entry.id : entry.parentId;
  const params = new URLSearchParams();
  let path: string;
  if (entry.spaceId === null) path = categoryPage(entry.category);
  else if (entry.spaceId === publicSpaceId) path = '/main/file/publicSpace';
  else {
    path = '/main/group';
    params.set(SPACE_QUERY_PARAM, entry.spaceId);
  }
  if (dir) params.set(DIR_QUERY_PARAM, dir);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
