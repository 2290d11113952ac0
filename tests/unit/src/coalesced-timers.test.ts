import { environmentManager, QueryClient, QueryObserver, timeoutManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCoalescedTimers, type TimerHost } from '../../../src/lib/data/coalesced-timers';

/** A host whose clock and browser timers the test moves by hand, counting browser timer calls. */
function manualHost() {
  let now = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const microtasks: (() => void)[] = [];
  let nextId = 1;
  const calls = { set: 0, clear: 0 };
  const host: TimerHost = {
    now: () => now,
    setTimeout(callback, delay) {
      calls.set++;
      const id = nextId++;
      timers.set(id, { at: now + delay, callback });
      return id;
    },
    clearTimeout(id) {
      calls.clear++;
      timers.delete(id as number);
    },
    queueMicrotask: (callback) => void microtasks.push(callback),
  };
  const drainMicrotasks = () => {
    while (microtasks.length) microtasks.shift()!();
  };
  /** Moves the clock to `to`, firing browser timers in order (each followed by its microtasks). */
  const advanceTo = (to: number) => {
    drainMicrotasks();
    for (;;) {
      const next = [...timers].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > to) break;
      timers.delete(next[0]);
      now = Math.max(now, next[1].at);
      next[1].callback();
      drainMicrotasks();
    }
    now = to;
  };
  return { host, calls, timers, advanceTo, drainMicrotasks };
}

describe('coalesced timers', () => {
  it('runs each callback at its deadline, earliest first, with one browser timer armed at a time', () => {
    const m = manualHost();
    const timers = createCoalescedTimers(m.host);
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('c@300'), 300);
    timers.setTimeout(() => ran.push('a@100'), 100);
    timers.setTimeout(() => ran.push('b@200'), 200);
    timers.setTimeout(() => ran.push('a2@100'), 100);
    m.drainMicrotasks();
    expect(m.calls.set).toBe(1); // armed once, after the task, for the earliest deadline
    expect(m.timers.size).toBe(1);
    m.advanceTo(99);
    expect(ran).toEqual([]);
    m.advanceTo(100);
    expect(ran).toEqual(['a@100', 'a2@100']);
    m.advanceTo(1000);
    expect(ran).toEqual(['a@100', 'a2@100', 'b@200', 'c@300']);
    expect(timers.pending).toBe(0);
    expect(m.timers.size).toBe(0);
  });

  it('clears without touching the browser timer, and never runs a cleared callback', () => {
    const m = manualHost();
    const timers = createCoalescedTimers(m.host);
    const ran: number[] = [];
    const ids = Array.from({ length: 50 }, (_, i) => timers.setTimeout(() => ran.push(i), 1000 + i));
    m.drainMicrotasks();
    for (const id of ids.slice(0, 49)) timers.clearTimeout(id);
    timers.clearTimeout(undefined);
    expect(m.calls.clear).toBe(0);
    m.advanceTo(5000);
    expect(ran).toEqual([49]);
    // The timer armed for 1000 fired with nothing due and armed once more for 1049.
    expect(m.calls.set).toBe(2);
  });

  it('moves the browser timer earlier only when a new deadline comes before it', () => {
    const m = manualHost();
    const timers = createCoalescedTimers(m.host);
    const ran: string[] = [];
    timers.setTimeout(() => ran.push('late'), 30_000);
    m.drainMicrotasks();
    timers.setTimeout(() => ran.push('later'), 60_000);
    m.drainMicrotasks();
    expect([m.calls.set, m.calls.clear]).toEqual([1, 0]);
    timers.setTimeout(() => ran.push('soon'), 10);
    m.drainMicrotasks();
    expect([m.calls.set, m.calls.clear]).toEqual([2, 1]);
    m.advanceTo(60_000);
    expect(ran).toEqual(['soon', 'late', 'later']);
  });

  it('runs a timeout set from a callback, and the others when one throws', () => {
    const m = manualHost();
    const timers = createCoalescedTimers(m.host);
    const ran: string[] = [];
    timers.setTimeout(() => {
      ran.push('first');
      timers.setTimeout(() => ran.push('chained'), 0);
    }, 10);
    timers.setTimeout(() => {
      throw new Error('boom');
    }, 10);
    timers.setTimeout(() => ran.push('after the throw'), 10);
    expect(() => m.advanceTo(20)).toThrow('boom'); // reported from a microtask, as a browser would
    m.advanceTo(20);
    expect(ran).toEqual(['first', 'after the throw', 'chained']);
  });

  it('waits in steps for a deadline past the browser limit instead of firing at once', () => {
    const m = manualHost();
    const timers = createCoalescedTimers(m.host);
    let ran = false;
    const days30 = 30 * 24 * 3600 * 1000;
    timers.setTimeout(() => (ran = true), days30);
    m.advanceTo(2 ** 31);
    expect(ran).toBe(false);
    m.advanceTo(days30);
    expect(ran).toBe(true);
  });
});

describe('TanStack Query on coalesced timers', () => {
  // TanStack Query's environment and timer provider are process-wide, and the unit project's files share
  // a worker's modules (vitest.config.ts): both go back to what the next file expects.
  const wasServer = environmentManager.isServer();
  beforeEach(() => {
    vi.useFakeTimers();
    // Without a window TanStack Query takes Node for a server and sets no timers at all.
    environmentManager.setIsServer(() => false);
  });
  afterEach(() => {
    vi.useRealTimers();
    environmentManager.setIsServer(() => wasServer);
    // A table armed on fake timers would wait for a browser timer that never fires: a fresh one, as
    // src/lib/data/query-client.ts sets at its import.
    timeoutManager.setTimeoutProvider(createCoalescedTimers());
  });

  it('marks an observed answer stale and collects an unobserved query, as with browser timers', async () => {
    timeoutManager.setTimeoutProvider(createCoalescedTimers());
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, gcTime: 60_000 } } });
    client.setQueryData(['listing'], ['a.txt']);
    const observer = new QueryObserver(client, { queryKey: ['listing'], queryFn: () => ['a.txt', 'b.txt'] });
    const results: boolean[] = [];
    const stop = observer.subscribe((r) => results.push(r.isStale));
    expect(observer.getCurrentResult().isStale).toBe(false);
    await vi.advanceTimersByTimeAsync(30_001);
    expect(results.at(-1)).toBe(true);
    stop();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(client.getQueryCache().find({ queryKey: ['listing'] })).toBeDefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(client.getQueryCache().find({ queryKey: ['listing'] })).toBeUndefined();
    client.clear();
  });
});
