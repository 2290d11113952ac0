import { FILE_LIST_DEFAULT_PAGE_SIZE, type FileCategory, type FileSortField, type SortOrder } from './types';
import type { FileListRequest } from './endpoints/files';

/**
 * The body of a folder listing (`/api/file/list`): one builder for the file pages and for the boot of
 * a page load, which asks for the same listing before the page has rendered. The two must send the
 * same bytes for the page to take the answer asked for at boot.
 */
export function folderListRequest(
  scope: { category: FileCategory; spaceId: string | null },
  parentId: string | null,
  sort: { field: FileSortField; order: SortOrder },
  cursor: string | null,
): FileListRequest {
  return {
    parentId,
    category: scope.category,
    spaceId: scope.spaceId,
    cursor,
    pageSize: FILE_LIST_DEFAULT_PAGE_SIZE,
    sortField: sort.field,
    sortOrder: sort.order,
  };
}
