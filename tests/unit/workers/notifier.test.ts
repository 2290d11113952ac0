import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFY_INTERVAL_MS, PROMPT_NOTIFY_MS, ThrottledNotifier } from '../../../workers/engine/notifier';

describe('ThrottledNotifier', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function subscribed() {
    let value = 0;
    const notifier = new ThrottledNotifier(() => value, () => Date.now());
    const seen: { at: number; value: number }[] = [];
    const start = Date.now();
    notifier.subscribe((v) => void seen.push({ at: Date.now() - start, value: v }));
    seen.length = 0; // the value sent on subscribing
    return { notifier, seen, set: (v: number) => (value = v) };
  }

  it('sends progress at most once per interval, the latest value', async () => {
    const { notifier, seen, set } = subscribed();
    for (let i = 1; i <= 10; i++) {
      set(i);
      notifier.changed();
      await vi.advanceTimersByTimeAsync(30);
    }
    await vi.advanceTimersByTimeAsync(NOTIFY_INTERVAL_MS);
    expect(seen.length).toBeLessThanOrEqual(3);
    expect(seen.at(-1)?.value).toBe(10);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.at - seen[i - 1]!.at).toBeGreaterThanOrEqual(NOTIFY_INTERVAL_MS);
  });

  it('a state change is sent within PROMPT_NOTIFY_MS even when progress waits for the interval', async () => {
    const { notifier, seen, set } = subscribed();
    set(1);
    notifier.changed();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([{ at: 0, value: 1 }]);
    // Progress now waits a whole interval…
    set(2);
    notifier.changed();
    await vi.advanceTimersByTimeAsync(50);
    expect(seen).toHaveLength(1);
    // …but a state change overtakes it.
    set(3);
    notifier.changed(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([
      { at: 0, value: 1 },
      { at: 50, value: 3 },
    ]);
    // and does not add a second notification for the progress that was waiting
    await vi.advanceTimersByTimeAsync(NOTIFY_INTERVAL_MS * 2);
    expect(seen).toHaveLength(2);
  });

  it('a burst of state changes still makes one notification per PROMPT_NOTIFY_MS', async () => {
    const { notifier, seen, set } = subscribed();
    for (let i = 1; i <= 100; i++) {
      set(i);
      notifier.changed(true);
      await vi.advanceTimersByTimeAsync(1);
    }
    await vi.advanceTimersByTimeAsync(PROMPT_NOTIFY_MS);
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(100 / PROMPT_NOTIFY_MS) + 1);
    expect(seen.at(-1)?.value).toBe(100);
  });
});
