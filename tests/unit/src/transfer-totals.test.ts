import { describe, expect, it } from 'vitest';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { isUnderWay, overall, overallPercent, overallStatus } from '../../../src/features/transfer/transfer-totals';

const item = (over: Partial<TransferItemView>): TransferItemView => ({
  id: String(Math.random()),
  direction: 'upload',
  name: 'a.bin',
  size: 100,
  bytesDone: 0,
  state: 'waiting',
  speed: 0,
  etaSeconds: null,
  lastError: null,
  target: { parentId: null, category: 1 },
  fileId: null,
  createdAt: 0,
  ...over,
});

describe('transfer totals: a failed item has ended (with an error)', () => {
  it('a lone failed item takes the bar to its end, red, instead of 99 % or 0 %', () => {
    for (const bytesDone of [0, 99, 100]) {
      const items = [item({ state: 'failed', holdReason: 'badName', bytesDone })];
      const sum = overall(items);
      expect(sum.failed).toBe(1);
      expect(overallPercent(items, sum)).toBe(100);
      expect(overallStatus(items, sum)).toBe('exception');
      expect(items.some(isUnderWay)).toBe(false);
    }
  });

  it('beside an upload under way the bar counts the failed one as finished and stays below 100 until the rest is', () => {
    const items = [item({ state: 'failed', bytesDone: 10 }), item({ state: 'uploading', bytesDone: 50 })];
    const sum = overall(items);
    expect(sum).toMatchObject({ done: 150, total: 200, failed: 1 });
    expect(overallPercent(items, sum)).toBe(75);
    expect(overallStatus(items, sum)).toBe('normal');
    const finished = [items[0]!, item({ state: 'done', bytesDone: 100 })];
    expect(overallPercent(finished, overall(finished))).toBe(100);
    expect(overallStatus(finished, overall(finished))).toBe('exception');
  });

  it('a merge still to come shows 99; intercepted and cancelled items do not count', () => {
    const items = [item({ state: 'uploading', bytesDone: 100 }), item({ state: 'failed', holdReason: 'blockedType' }), item({ state: 'cancelled' })];
    const sum = overall(items);
    expect(sum).toMatchObject({ done: 100, total: 100, failed: 0 });
    expect(overallPercent(items, sum)).toBe(99);
    expect(overallStatus(items, sum)).toBe('normal');
  });
});
