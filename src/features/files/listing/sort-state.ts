/**
 * Server-side sort of a file list (spec §3 "sort"): which column, which direction. Clicking a column
 * header asks the server for a fresh first page in that order; the keyset cursor is tied to it.
 */
import type { FileSortField, SortOrder } from '../../../../common/api/types';

export interface SortState {
  field: FileSortField;
  order: SortOrder;
}

export const DEFAULT_SORT: SortState = { field: 'name', order: 'asc' };

/**
 * The sort a click on a column header asks for: the sorted column flips its direction, another column
 * starts ascending.
 */
export function nextSort(current: SortState, field: FileSortField): SortState {
  if (current.field !== field) return { field, order: 'asc' };
  return { field, order: current.order === 'asc' ? 'desc' : 'asc' };
}
