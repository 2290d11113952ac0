/**
 * The addresses of file pages (spec §2 routes), shared by the file pages and whatever links into them
 * (file messages open the folder holding an entry with the entry selected).
 */
import { FILE_CATEGORY } from '../../common/api/types';

/** The open folder: `?dir=<id>` (none = the root). */
export const DIR_QUERY_PARAM = 'dir';
/** The group space of /main/group: `?space=<id>`. */
export const SPACE_QUERY_PARAM = 'space';
/** An entry to select (and scroll to) once the folder's list holds it: `?select=<id>`. */
export const SELECT_QUERY_PARAM = 'select';

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

export interface EntryPlace {
  /** The folder to open (null = the root of the category or space). */
  dir: string | null;
  category: number;
  spaceId: string | null;
  spaceKind: 'group' | 'public' | null;
  /** The entry to select there. */
  select?: string;
}

/** The URL of a folder of any space, optionally with an entry selected. */
export function folderUrl(place: EntryPlace): string {
  const params = new URLSearchParams();
  let path: string;
  if (place.spaceId === null || place.spaceKind === null) {
    path = categoryPage(place.category);
    // The caller's own shared area is the other tab of 共享文件 (the first lists what others share).
    if (place.category === FILE_CATEGORY.shared) params.set('tab', 'own');
  } else if (place.spaceKind === 'public') path = '/main/file/publicSpace';
  else {
    path = '/main/group';
    params.set(SPACE_QUERY_PARAM, place.spaceId);
  }
  if (place.dir) params.set(DIR_QUERY_PARAM, place.dir);
  if (place.select) params.set(SELECT_QUERY_PARAM, place.select);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}
