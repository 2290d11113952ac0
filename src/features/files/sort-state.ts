/**
 * Server-side sort of a file list (spec §3 "sort"): which column, which direction. Clicking a column
 * header asks the server for a fresh first page in that order; the keyset cursor is tied to it.
 */
import type { FileSortField, SortOrder } from '../../../common/api/types';

export interface SortState {
  field: FileSortField;
  order: SortOrder;
}

export const DEFAULT_SORT: SortState = { field: 'name', order: 'asc' };

const FIELDS: readonly FileSortField[] = ['name', 'size', 'updatedAt'];

/** antd's sorter order names. */
export type TableSortOrder = 'ascend' | 'descend' | null | undefined;

/**
 * The sort a header click asks for. antd cycles a column ascend → descend → none; "none" goes back to
 * the default order (by name, ascending), and a column the server cannot sort by is ignored.
 */
export function sortFromTable(columnKey: unknown, order: TableSortOrder): SortState {
  if (!order || typeof columnKey !== 'string' || !FIELDS.includes(columnKey as FileSortField)) return DEFAULT_SORT;
  return { field: columnKey as FileSortField, order: order === 'descend' ? 'desc' : 'asc' };
}

/** What antd shows on a column header for the current sort (the controlled `sortOrder`). */
export function tableOrderOf(sort: SortState, columnKey: FileSortField): 'ascend' | 'descend' | null {
  if (sort.field !== columnKey) return null;
  return sort.order === 'asc' ? 'ascend' : 'descend';
}
