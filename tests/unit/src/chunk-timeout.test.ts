import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../../common/constants';
import { ChunkLoadError, loadWithTimeout } from '../../../src/lib/chunk-timeout';

describe('page chunk timeout (spec §8/§9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is 120 seconds', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('fails a load still pending after 120 s, not before', async () => {
    const result = loadWithTimeout(() => new Promise<string>(() => undefined));
    const settled = vi.fn();
    result.then(settled, settled);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await result.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).timedOut).toBe(true);
  });

  it('passes a chunk loaded in time through and cancels the timer', async () => {
    const result = loadWithTimeout(() => new Promise<string>((r) => setTimeout(() => r('page'), 119_000)));
    await vi.advanceTimersByTimeAsync(119_000);
    await expect(result).resolves.toBe('page');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('wraps a failed load as a ChunkLoadError (not timed out) keeping the cause', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const error = await loadWithTimeout(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).timedOut).toBe(false);
    expect((error as ChunkLoadError).cause).toBe(cause);
    expect(vi.getTimerCount()).toBe(0);
  });
});
