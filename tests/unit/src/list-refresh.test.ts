import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { createListRefresh, queueIdle } from '../../../src/features/transfer/list-refresh';

afterEach(() => vi.useRealTimers());

describe('file list refresh after uploads', () => {
  it('refreshes at once, then at most once per interval while uploads run, and at once when the queue is idle', () => {
    vi.useFakeTimers(); // Date.now too
    const refresh = vi.fn();
    const lists = createListRefresh(refresh, 2_000);

    lists.finished(false); // the first finished file shows at once
    expect(refresh).toHaveBeenCalledTimes(1);

    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(150);
      lists.finished(false); // a file every 150 ms: one refresh is due at 2 s
    }
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2_000 - 1_500);
    expect(refresh).toHaveBeenCalledTimes(2);

    vi.advanceTimersByTime(100);
    lists.finished(true); // the last one: the user is waiting, no delay
    expect(refresh).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(10_000);
    expect(refresh).toHaveBeenCalledTimes(3); // no timer left behind
    lists.dispose();
  });

  it('the queue is idle when nothing will move without the user', () => {
    const item = (state: TransferItemView['state']) => ({ state }) as TransferItemView;
    expect(queueIdle([item('done'), item('failed'), item('paused'), item('held'), item('cancelled')])).toBe(true);
    for (const moving of ['waiting', 'hashing', 'checking', 'uploading', 'retrying'] as const) expect(queueIdle([item('done'), item(moving)])).toBe(false);
  });
});
