import { describe, expect, it } from 'vitest';
import { PerTenantCache } from '../../../server/services/per-tenant-cache';

/** A load per call, counted, answering when `release` is called (or at once). */
function loader() {
  const calls: string[] = [];
  const pending: Array<() => void> = [];
  let held = false;
  let n = 0;
  const load = (tenantId: string) => {
    calls.push(tenantId);
    const value = `${tenantId}#${++n}`;
    if (!held) return Promise.resolve(value);
    return new Promise<string>((resolve) => pending.push(() => resolve(value)));
  };
  return {
    load,
    calls,
    hold: () => void (held = true),
    release: () => {
      held = false;
      for (const r of pending.splice(0)) r();
    },
  };
}

describe('PerTenantCache', () => {
  it('loads once per tenant while fresh, again after maxAgeMs', async () => {
    const l = loader();
    const cache = new PerTenantCache(l.load, async () => undefined, 1000);
    expect(await cache.get('a', 0)).toBe('a#1');
    expect(await cache.get('a', 999)).toBe('a#1');
    expect(await cache.get('b', 999)).toBe('b#2');
    expect(await cache.get('a', 1000)).toBe('a#3');
    expect(l.calls).toEqual(['a', 'b', 'a']);
  });

  it('shares one load among readers arriving while it runs', async () => {
    const l = loader();
    l.hold();
    const cache = new PerTenantCache(l.load, async () => undefined, 1000);
    const both = Promise.all([cache.get('a', 0), cache.get('a', 1)]);
    l.release();
    expect(await both).toEqual(['a#1', 'a#1']);
    expect(l.calls).toEqual(['a']);
  });

  it('answers but does not keep a load that was running when a change was heard', async () => {
    const l = loader();
    l.hold();
    const cache = new PerTenantCache(l.load, async () => undefined, 1000);
    const early = cache.get('a', 0);
    cache.forget('a');
    l.release();
    expect(await early).toBe('a#1');
    expect(await cache.get('a', 1)).toBe('a#2');
  });

  it('changed drops the copy here and tells the others; forget() drops every tenant', async () => {
    const l = loader();
    const told: string[] = [];
    const cache = new PerTenantCache(l.load, async (t) => void told.push(t), 1000);
    await cache.get('a', 0);
    await cache.get('b', 0);
    await cache.changed('a');
    expect(told).toEqual(['a']);
    expect(await cache.get('a', 1)).toBe('a#3');
    expect(await cache.get('b', 1)).toBe('b#2');
    cache.forget();
    expect(await cache.get('b', 2)).toBe('b#4');
  });

  it('does not keep a failed load', async () => {
    let fail = true;
    const cache = new PerTenantCache(async () => (fail ? Promise.reject(new Error('db down')) : 'ok'), async () => undefined, 1000);
    await expect(cache.get('a', 0)).rejects.toThrow('db down');
    fail = false;
    expect(await cache.get('a', 1)).toBe('ok');
  });
});
