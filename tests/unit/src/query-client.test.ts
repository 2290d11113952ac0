import { describe, expect, it } from 'vitest';
import { CACHE_MAX_AGE_MS } from '../../../src/lib/data/query-client';

describe('query client', () => {
  it('keeps gcTime within what a timer can hold (a longer one collects every query at once)', () => {
    expect(CACHE_MAX_AGE_MS).toBeLessThanOrEqual(2 ** 31 - 1);
  });
});
