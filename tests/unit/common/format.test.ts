import { describe, expect, it } from 'vitest';
import { formatSize } from '../../../common/format/size';
import { formatDateTime } from '../../../common/format/date';

describe('formatSize (spec §9: B, KB, MB, GB with 2 decimals)', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 * 1024 - 1, '1024.00 KB'],
    [1024 * 1024, '1.00 MB'],
    [5.25 * 1024 * 1024, '5.25 MB'],
    [1024 ** 3, '1.00 GB'],
    [3 * 1024 ** 4, '3072.00 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });

  it('refuses nonsense', () => {
    expect(formatSize(-1)).toBe('-');
    expect(formatSize(Number.NaN)).toBe('-');
  });
});

describe('formatDateTime (spec §9: yyyy-MM-dd HH:mm, local time)', () => {
  it('pads every field', () => {
    const ms = new Date(2024, 0, 5, 7, 3, 59).getTime();
    expect(formatDateTime(ms)).toBe('2024-01-05 07:03');
  });
  it('handles the end of a year', () => {
    expect(formatDateTime(new Date(2023, 11, 31, 23, 59).getTime())).toBe('2023-12-31 23:59');
  });
  it('gives - for invalid input', () => {
    expect(formatDateTime(Number.NaN)).toBe('-');
  });
});
