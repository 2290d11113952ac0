import { describe, expect, it, vi } from 'vitest';
import { reloadOnceForNewDeployment } from '../../../src/lib/deploy-reload';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe('a chunk that fails after a deployment', () => {
  it('reloads the page once, then leaves the retry screen for a minute', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnceForNewDeployment({ storage, online: true, now: 1_000_000, reload })).toBe(true);
    expect(reloadOnceForNewDeployment({ storage, online: true, now: 1_030_000, reload })).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForNewDeployment({ storage, online: true, now: 1_061_000, reload })).toBe(true);
  });
  it('never reloads offline (the chunk is missing because the network is)', () => {
    const reload = vi.fn();
    expect(reloadOnceForNewDeployment({ storage: memoryStorage(), online: false, now: 1, reload })).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });
});
