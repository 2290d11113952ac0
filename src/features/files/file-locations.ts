/**
 * Where an entry lives in the app's routes (spec §2), for 打开所在位置 from favorites, search results
 * and the like: a personal category's page, or a space's page, opened at the entry's folder.
 */
import type { FileEntry } from '../../../common/api/types';
import { categoryPage, DIR_QUERY_PARAM, SPACE_QUERY_PARAM } from '../../lib/file-urls';

export { categoryPage, SELECT_QUERY_PARAM, SPACE_QUERY_PARAM } from '../../lib/file-urls';
export const KEYWORD_QUERY_PARAM = 'keyword';

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
