import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, sortFromTable, tableOrderOf } from '../../../src/features/files/sort-state';

describe('file list sort state', () => {
  it('turns a header click into the server sort', () => {
    expect(sortFromTable('size', 'ascend')).toEqual({ field: 'size', order: 'asc' });
    expect(sortFromTable('updatedAt', 'descend')).toEqual({ field: 'updatedAt', order: 'desc' });
    expect(sortFromTable('name', 'descend')).toEqual({ field: 'name', order: 'desc' });
  });

  it('goes back to name ascending when the column is cleared or cannot be sorted by the server', () => {
    expect(sortFromTable('size', null)).toEqual(DEFAULT_SORT);
    expect(sortFromTable('size', undefined)).toEqual(DEFAULT_SORT);
    expect(sortFromTable('actions', 'ascend')).toEqual(DEFAULT_SORT);
    expect(sortFromTable(undefined, 'ascend')).toEqual(DEFAULT_SORT);
    expect(DEFAULT_SORT).toEqual({ field: 'name', order: 'asc' });
  });

  it('shows the arrow on the sorted column only', () => {
    const sort = { field: 'size', order: 'desc' } as const;
    expect(tableOrderOf(sort, 'size')).toBe('descend');
    expect(tableOrderOf(sort, 'name')).toBeNull();
    expect(tableOrderOf(DEFAULT_SORT, 'name')).toBe('ascend');
  });
});
