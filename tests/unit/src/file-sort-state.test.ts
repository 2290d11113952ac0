import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, nextSort } from '../../../src/features/files/listing/sort-state';

describe('file list sort state', () => {
  it('starts by name, ascending', () => {
    expect(DEFAULT_SORT).toEqual({ field: 'name', order: 'asc' });
  });

  it('a click on the sorted column flips its direction', () => {
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ field: 'name', order: 'desc' });
    expect(nextSort({ field: 'name', order: 'desc' }, 'name')).toEqual({ field: 'name', order: 'asc' });
    expect(nextSort({ field: 'size', order: 'asc' }, 'size')).toEqual({ field: 'size', order: 'desc' });
  });

  it('a click on another column sorts by it, ascending', () => {
    expect(nextSort(DEFAULT_SORT, 'size')).toEqual({ field: 'size', order: 'asc' });
    expect(nextSort({ field: 'size', order: 'desc' }, 'updatedAt')).toEqual({ field: 'updatedAt', order: 'asc' });
  });
});
