/**
 * Where the data layer keeps answers between visits: one IndexedDB database, one row per partition —
 * the public one (brand and logo, shown before login) and one per tenant and account. Each partition
 * is one serialized TanStack Query client, written by persistence.ts. idb-keyval (a few
 * hundred bytes) rather than Dexie: this runs before the login page shows, where every kB counts.
 */
import { createStore, del, get, promisifyRequest } from 'idb-keyval';

let store: ReturnType<typeof createStore> | null = null;
const open = () => (store ??= createStore('drive-cache', 'entries'));

/** The storage the persisters use (getItem/setItem/removeItem over IndexedDB). */
export const cacheStorage = {
  async getItem(key: string): Promise<string | null> {
    return (await get<string>(key, open())) ?? null;
  },
  /**
   * idb-keyval's `set` with an explicit `commit()`: Chromium drops a write still waiting for its
   * transaction to auto-commit when the page is left, and the last save is made on `pagehide`. With
   * the commit 3 of 8 such writes of 100 kB landed in a trial, without it none of 8.
   */
  setItem: (key: string, value: string): Promise<void> =>
    open()('readwrite', (store) => {
      store.put(value, key);
      store.transaction.commit?.();
      return promisifyRequest(store.transaction);
    }),
  removeItem: (key: string): Promise<void> => del(key, open()),
};
