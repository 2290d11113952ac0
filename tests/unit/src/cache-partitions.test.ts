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
/** Node has no page to leave; the test that needs one passes its own. */
const noPageEvents = () => () => {};

interface SavedQuery {
  queryKey: unknown[];
  state: { isInvalidated: boolean; data: unknown };
}
/** The query of a saved partition whose key ends with `last`. */
const savedQuery = (saved: string, last: string): SavedQuery =>
  (JSON.parse(saved) as { clientState: { queries: SavedQuery[] } }).clientState.queries.find((q) => q.queryKey.at(-1) === last)!;

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

  it('a save still pending when the session ends (saves wait for a later task) never brings the wiped partition back', async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client);
    await persistence.useAccount(A);
    client.setQueryData(['files', 'folder', 'a'], { secret: 'first' });
    await flushed();
    // A change just before logout: its save waits at least for the next task, and the wipe happens meanwhile.
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

  it('saves once after a burst of fetched answers, what the cache holds by then, and soon: a reload just after still finds it', async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client, noPageEvents);
    await persistence.useAccount(A);
    const writes = vi.spyOn(cacheStorage, 'setItem');
    const savesOfA = () => writes.mock.calls.filter(([key]) => key === partitionOf(A));
    try {
      // A page mounting: many queries added and answered. Nothing is written inside that task.
      const fetched = Promise.all(Array.from({ length: 200 }, (_, i) => client.fetchQuery({ queryKey: ['files', 'folder', `f${i}`], queryFn: () => ({ n: i }) })));
      expect(writes).not.toHaveBeenCalled();
      await fetched;
      // Written right after, once, with the last answer.
      await new Promise((r) => setTimeout(r, 100));
      expect(savesOfA()).toHaveLength(1);
      expect(savesOfA()[0]![1]).toContain('"n":199');
      // Answers fetched within the next second gather into one more save, at the end of it.
      await client.fetchQuery({ queryKey: ['files', 'folder', 'f0'], queryFn: () => ({ n: 'refetched' }), staleTime: 0 });
      await new Promise((r) => setTimeout(r, 100));
      expect(savesOfA()).toHaveLength(1);
      await flushed();
      expect(savesOfA()).toHaveLength(2);
      expect(savedQuery(savesOfA()[1]![1], 'f0').state.data).toEqual({ n: 'refetched' });
    } finally {
      writes.mockRestore();
      await persistence.wipe(A);
    }
  });

  it('saves an invalidation, an edit of its own and a removal right after their task, even within a second of the last save', async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client, noPageEvents);
    await persistence.useAccount(A);
    await client.fetchQuery({ queryKey: ['org', 'tree'], queryFn: () => ({ departments: ['old'] }) });
    await client.fetchQuery({ queryKey: ['files', 'folder', 'x'], queryFn: () => ({ items: ['a', 'b'] }) });
    await client.fetchQuery({ queryKey: ['files', 'folder', 'gone'], queryFn: () => ({ items: [] }) });
    await new Promise((r) => setTimeout(r, 100));
    const saved = async () => (await cacheStorage.getItem(partitionOf(A)))!;
    expect(savedQuery(await saved(), 'tree').state.isInvalidated).toBe(false);
    try {
      // A department was created: the tree is invalidated well within a second of the save above. A
      // navigation right after must find it marked stale on disk, or the new tree shows it missing.
      await client.invalidateQueries({ queryKey: ['org', 'tree'], refetchType: 'none' });
      await new Promise((r) => setTimeout(r, 50));
      expect(savedQuery(await saved(), 'tree').state.isInvalidated).toBe(true);
      // An optimistic edit (a row taken off a list) is on disk as soon.
      client.setQueryData(['files', 'folder', 'x'], { items: ['a'] });
      await new Promise((r) => setTimeout(r, 50));
      expect(savedQuery(await saved(), 'x').state.data).toEqual({ items: ['a'] });
      client.removeQueries({ queryKey: ['files', 'folder', 'gone'] });
      await new Promise((r) => setTimeout(r, 50));
      expect(await saved()).not.toContain('"gone"');
      // The next load refetches the invalidated tree instead of showing the old one as fresh.
      const later = createQueryClient();
      const reopened = new CachePersistence(later, noPageEvents);
      await reopened.useAccount(A);
      expect(later.getQueryState(['org', 'tree'])!.isInvalidated).toBe(true);
      await reopened.wipe(null);
    } finally {
      await persistence.wipe(A);
    }
  });

  it('makes a save still waiting at once when the page is left or hidden', async () => {
    const client = createQueryClient();
    let leave = () => {};
    const persistence = new CachePersistence(client, (onLeave) => {
      leave = onLeave;
      return () => {
        leave = () => {};
      };
    });
    await persistence.useAccount(A);
    await client.fetchQuery({ queryKey: ['files', 'folder', 'y'], queryFn: () => ({ n: 1 }) });
    await new Promise((r) => setTimeout(r, 100));
    try {
      // A fetched answer waits for the once-a-second save; the page goes away first.
      await client.fetchQuery({ queryKey: ['files', 'folder', 'y'], queryFn: () => ({ n: 2 }), staleTime: 0 });
      await new Promise((r) => setTimeout(r, 50));
      expect(savedQuery((await cacheStorage.getItem(partitionOf(A)))!, 'y').state.data).toEqual({ n: 1 });
      leave();
      await new Promise((r) => setTimeout(r, 50));
      expect(savedQuery((await cacheStorage.getItem(partitionOf(A)))!, 'y').state.data).toEqual({ n: 2 });
      // Nothing waiting: leaving writes nothing.
      const writes = vi.spyOn(cacheStorage, 'setItem');
      leave();
      await new Promise((r) => setTimeout(r, 50));
      expect(writes).not.toHaveBeenCalled();
      writes.mockRestore();
    } finally {
      await persistence.wipe(A);
    }
  });

  it('writes one save at a time, and of saves asked for meanwhile only the newest', async () => {
    const client = createQueryClient();
    const persistence = new CachePersistence(client, noPageEvents);
    await persistence.useAccount(A);
    const original = cacheStorage.setItem;
    const written: string[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const writes = vi.spyOn(cacheStorage, 'setItem').mockImplementation(async (key, value) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 80)); // a slow disk
      await original(key, value);
      written.push(value);
      inFlight--;
    });
    try {
      for (let n = 1; n <= 4; n++) {
        client.setQueryData(['files', 'folder', 'z'], { n });
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 400));
      expect(mostInFlight).toBe(1);
      // The first change was being written while the next three came: only the last of them follows.
      expect(written.map((v) => savedQuery(v, 'z').state.data)).toEqual([{ n: 1 }, { n: 4 }]);
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
