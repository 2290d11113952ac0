import { onlineManager } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API } from '../../../common/api/paths';
import { noteServerAnswered, reachabilityFetch } from '../../../src/lib/data/reachability';

/**
 * The data layer's online flag follows the server, not navigator.onLine: a request that fails at the
 * network level turns the app offline, a probe turns it back once the server answers anything.
 */
describe('reachability', () => {
  let network: 'up' | 'down';
  const calls: string[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('window', globalThis);
    network = 'up';
    calls.length = 0;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      calls.push(String(input));
      if (network === 'down') throw new TypeError('Failed to fetch');
      return new Response('{}', { status: 503 });
    });
    noteServerAnswered();
  });
  afterEach(() => {
    noteServerAnswered();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('a network failure turns the app offline; an HTTP answer of any status is the server reachable', async () => {
    network = 'down';
    await expect(reachabilityFetch('/api/x')).rejects.toThrow(TypeError);
    expect(onlineManager.isOnline()).toBe(false);
    network = 'up';
    await reachabilityFetch('/api/x'); // a 503 is still an answer
    expect(onlineManager.isOnline()).toBe(true);
  });

  it('while offline a probe asks the server, and the first answer brings the app back', async () => {
    network = 'down';
    await expect(reachabilityFetch('/api/x')).rejects.toThrow();
    calls.length = 0;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(calls).toEqual([API.systemConfig]);
    expect(onlineManager.isOnline()).toBe(false);
    network = 'up';
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toEqual([API.systemConfig, API.systemConfig]);
    expect(onlineManager.isOnline()).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(2); // no probing once reachable
  });

  it('a request the caller aborted says nothing about the network', async () => {
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal('fetch', async () => {
      throw new DOMException('aborted', 'AbortError');
    });
    await expect(reachabilityFetch('/api/x', { signal: controller.signal })).rejects.toThrow();
    expect(onlineManager.isOnline()).toBe(true);
  });
});
