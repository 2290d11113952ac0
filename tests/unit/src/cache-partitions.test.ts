import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { partitionOf } from '../../../src/lib/data/account';
import { cacheStorage } from '../../../src/lib/data/cache-db';
import { CachePersistence, PERSISTED_PAGES, serializeClient } from '../../../src/lib/data/persistence';
import { createQueryClient } from '../../../src/lib/data/query-client';

/**
 * The data layer's partitions on fake-indexeddb: the public partition for everyone, one per tenant and
 * account; switching accounts never hydrates another's answers; a wipe removes them from disk.
 */
const A = { tenantId: 't1', userId: 'alice' };
const B = { tenantId: 't1', userId: 'bob' };
/** The persisters write at most once a second (throttle): wait for that. */
const flushed = () => new Promise((r) => setTimeout(r, 1300));

describe('cache partitions', () => {
  it("keeps each account's answers apart, the public ones for all, and wipes an account from disk", async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client);
    await persistence.start();
    client.setQueryData(['public', 'systemConfig'], { brandName: '演示' });
    await persistence.useAccount(A);
    client.setQueryData(['files', 'folder', 'a'], { secret: 'alice-only' });
    await flushed();
    expect(await cacheStorage.getItem(partitionOf(A))).toContain('alice-only');
    expect(await cacheStorage.getItem('public')).toContain('演示');
    expect(await cacheStorage.getItem('public')).not.toContain('alice-only');

    // Bob on the same browser: Alice's answers leave memory, and none of them come back from disk.
    await persistence.useAccount(B);
    expect(client.getQueryData(['files', 'folder', 'a'])).toBeUndefined();
    expect(client.getQueryData(['public', 'systemConfig'])).toEqual({ brandName: '演示' });
    client.setQueryData(['files', 'folder', 'b'], { mine: 'bob' });
    await flushed();
    expect(await cacheStorage.getItem(partitionOf(B))).not.toContain('alice-only');

    // Alice again (a later visit): her partition is restored.
    const later = createQueryClient();
    const reopened = new CachePersistence(later);
    await reopened.start();
    await reopened.useAccount(A);
    expect(later.getQueryData(['files', 'folder', 'a'])).toEqual({ secret: 'alice-only' });
    expect(later.getQueryData(['files', 'folder', 'b'])).toBeUndefined();

    // Logout: her partition is gone from memory and disk.
    await reopened.wipe(A);
    expect(later.getQueryData(['files', 'folder', 'a'])).toBeUndefined();
    expect(await cacheStorage.getItem(partitionOf(A))).toBeNull();
  });

  it('a save still pending when the session ends (the writes are throttled) never brings the wiped partition back', async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client);
    await persistence.useAccount(A);
    client.setQueryData(['files', 'folder', 'a'], { secret: 'first' });
    await flushed();
    // A change just before logout: its write waits for the throttle, and the wipe happens meanwhile.
    client.setQueryData(['files', 'folder', 'a'], { secret: 'last-moment' });
    await persistence.wipe(A);
    await flushed();
    expect(await cacheStorage.getItem(partitionOf(A))).toBeNull();
    // The same holds when another account takes over instead.
    await persistence.useAccount(A);
    client.setQueryData(['files', 'folder', 'a'], { secret: 'again' });
    await flushed();
    client.setQueryData(['files', 'folder', 'a'], { secret: 'switch-moment' });
    await persistence.wipe(A);
    await persistence.useAccount(B);
    await flushed();
    expect(await cacheStorage.getItem(partitionOf(A))).toBeNull();
  }, 15_000); // four throttle periods

  it('saves once after a burst of changes, what the cache holds by then, and soon: a reload just after still finds it', async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client);
    await persistence.useAccount(A);
    const writes = vi.spyOn(cacheStorage, 'setItem');
    const savesOfA = () => writes.mock.calls.filter(([key]) => key === partitionOf(A));
    try {
      // A page mounting: many queries added and answered in one task. Nothing is written inside it.
      for (let i = 0; i < 200; i++) client.setQueryData(['files', 'folder', `f${i}`], { n: i });
      expect(writes).not.toHaveBeenCalled();
      // Written right after that task, once, with the last answer.
      await new Promise((r) => setTimeout(r, 100));
      expect(savesOfA()).toHaveLength(1);
      expect(savesOfA()[0]![1]).toContain('"n":199');
      // Changes within the next second gather into one more save, at the end of it.
      client.setQueryData(['files', 'folder', 'f0'], { n: 'changed' });
      client.invalidateQueries({ queryKey: ['files', 'folder', 'f1'] });
      await new Promise((r) => setTimeout(r, 100));
      expect(savesOfA()).toHaveLength(1);
      await flushed();
      expect(savesOfA()).toHaveLength(2);
      // The invalidation is on disk: a reload refetches that folder instead of showing it as fresh.
      const saved = JSON.parse(savesOfA()[1]![1]) as { clientState: { queries: Array<{ queryKey: unknown[]; state: { isInvalidated: boolean; data: unknown } }> } };
      expect(saved.clientState.queries.find((q) => q.queryKey[2] === 'f1')!.state.isInvalidated).toBe(true);
      expect(saved.clientState.queries.find((q) => q.queryKey[2] === 'f0')!.state.data).toEqual({ n: 'changed' });
    } finally {
      writes.mockRestore();
      await persistence.wipe(A);
    }
  });

  it('saves long lists with their first pages only', () => {
    const pages = Array.from({ length: PERSISTED_PAGES + 3 }, (_, i) => ({ items: [i], nextCursor: `c${i}` }));
    const saved = JSON.parse(
      serializeClient({
        timestamp: 1,
        buster: 'v1',
        clientState: { mutations: [], queries: [{ queryKey: ['files'], queryHash: 'h', dehydratedAt: 1, state: { data: { pages, pageParams: pages.map((_, i) => i) } } as never }] },
      }),
    ) as { clientState: { queries: Array<{ state: { data: { pages: unknown[]; pageParams: unknown[] } } }> } };
    expect(saved.clientState.queries[0]!.state.data.pages).toHaveLength(PERSISTED_PAGES);
    expect(saved.clientState.queries[0]!.state.data.pageParams).toHaveLength(PERSISTED_PAGES);
  });
});
