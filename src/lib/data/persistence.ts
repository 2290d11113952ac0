/**
 * Keeps the query cache in IndexedDB between visits, in partitions: 'public' (queries whose key
 * starts with 'public': brand and logo, needed before login) and one per tenant and account (every
 * other query). Only the partition of the account the server last confirmed is ever loaded; another
 * account's answers are never hydrated into this tab.
 */
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { timeoutManager, type DehydrateOptions, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave, type PersistedClient, type Persister } from '@tanstack/react-query-persist-client';
import { partitionOf, type CacheAccount } from './account';
import { cacheStorage } from './cache-db';
import { CACHE_MAX_AGE_MS } from './query-client';

/** Bumped when the shape of cached answers changes: older partitions are then dropped, not misread. */
const CACHE_BUSTER = 'v1';
/** An infinite list (a folder) is kept with at most this many pages: the first screens, not all 100k rows. */
export const PERSISTED_PAGES = 4;

export const isPublicKey = (key: QueryKey): boolean => key[0] === 'public';

interface InfiniteData {
  pages: unknown[];
  pageParams: unknown[];
}

const isInfinite = (data: unknown): data is InfiniteData =>
  typeof data === 'object' && data !== null && Array.isArray((data as InfiniteData).pages) && Array.isArray((data as InfiniteData).pageParams);

/** Serializes a partition, keeping only the first pages of long lists. */
export function serializeClient(client: PersistedClient): string {
  const queries = client.clientState.queries.map((q) =>
    isInfinite(q.state.data) && q.state.data.pages.length > PERSISTED_PAGES
      ? { ...q, state: { ...q.state, data: { pages: q.state.data.pages.slice(0, PERSISTED_PAGES), pageParams: q.state.data.pageParams.slice(0, PERSISTED_PAGES) } } }
      : q,
  );
  return JSON.stringify({ ...client, clientState: { ...client.clientState, queries } });
}

/**
 * The persister writes at most once a second, so a write may still be pending when the partition is
 * wiped (logout) or left (another account): `live` is asked at the moment of writing, and a partition
 * no longer live is never written again, so a wiped account's answers cannot come back to disk.
 */
const persisterFor = (key: string, live: () => boolean): Persister =>
  createAsyncStoragePersister({
    storage: { getItem: cacheStorage.getItem, removeItem: cacheStorage.removeItem, setItem: (k: string, value: string) => (live() ? cacheStorage.setItem(k, value) : Promise.resolve()) },
    key,
    throttleTime: 1000,
    serialize: serializeClient,
  });

/** After a save, further changes gather this long before the next one (a page mounting makes hundreds). */
const SAVE_EVERY_MS = 1000;
const SAVED_CHANGES = new Set(['added', 'removed', 'updated']);

/**
 * Saves the cache, dehydrated at the moment of saving: right after the task that changed it when none
 * was saved in the last second (a reload just after an invalidation must find the query marked stale
 * on disk, or it shows the old answer as fresh), then at most once a second. TanStack's
 * persistQueryClientSubscribe dehydrates the whole cache on every change instead (hundreds while a page
 * mounts, each query added, fetching, answered) and writes the first one in the middle of the change's
 * own task: main-thread work the first page's render waited behind. The wait is one of TanStack's
 * timeouts (the app's coalesced timer, coalesced-timers.ts), not a browser timer of its own.
 */
function keepPersisted(client: QueryClient, persister: Persister, dehydrateOptions: DehydrateOptions): () => void {
  let timer: ReturnType<typeof timeoutManager.setTimeout> | null = null;
  let lastSaveAt = -Infinity;
  const save = () => {
    timer = null;
    lastSaveAt = Date.now();
    void persistQueryClientSave({ queryClient: client, persister, buster: CACHE_BUSTER, dehydrateOptions });
  };
  const onChange = (event: { type: string }) => {
    if (timer === null && SAVED_CHANGES.has(event.type)) timer = timeoutManager.setTimeout(save, Math.max(0, lastSaveAt + SAVE_EVERY_MS - Date.now()));
  };
  const stopQueries = client.getQueryCache().subscribe(onChange);
  const stopMutations = client.getMutationCache().subscribe(onChange);
  return () => {
    stopQueries();
    stopMutations();
    if (timer !== null) timeoutManager.clearTimeout(timer);
    timer = null;
  };
}

/** Answers that are kept on disk: succeeded, and not marked `meta: { persist: false }` (a share link's visit). */
const succeeded = (q: Query): boolean => q.state.status === 'success' && q.meta?.persist !== false;

export class CachePersistence {
  private publicStop: (() => void) | null = null;
  private accountStop: (() => void) | null = null;
  private account: CacheAccount | null = null;
  /** Bumped whenever the account partition is left or wiped: its pending writes are then dropped. */
  private accountGeneration = 0;

  constructor(private readonly client: QueryClient) {}

  /** Loads the public partition and keeps it written. */
  async start(): Promise<void> {
    if (this.publicStop) return;
    const persister = persisterFor('public', () => true);
    await persistQueryClientRestore({ queryClient: this.client, persister, maxAge: CACHE_MAX_AGE_MS, buster: CACHE_BUSTER });
    this.publicStop = keepPersisted(this.client, persister, { shouldDehydrateQuery: (q) => succeeded(q) && isPublicKey(q.queryKey) });
  }

  /**
   * Shows `account`'s partition (null: none): another account's queries leave memory first, then
   * this one's are loaded from IndexedDB and kept written.
   */
  async useAccount(account: CacheAccount | null): Promise<void> {
    if (this.account && account && partitionOf(this.account) === partitionOf(account) && this.accountStop) return;
    this.stopAccount();
    this.client.removeQueries({ predicate: (q) => !isPublicKey(q.queryKey) });
    this.account = account;
    if (!account) return;
    const generation = this.accountGeneration;
    const persister = persisterFor(partitionOf(account), () => generation === this.accountGeneration);
    await persistQueryClientRestore({ queryClient: this.client, persister, maxAge: CACHE_MAX_AGE_MS, buster: CACHE_BUSTER });
    if (this.account !== account) return; // switched again meanwhile
    this.accountStop = keepPersisted(this.client, persister, { shouldDehydrateQuery: (q) => succeeded(q) && !isPublicKey(q.queryKey) });
  }

  /** Forgets the account's answers in memory and on disk (logout, session ended by the server). */
  async wipe(account: CacheAccount | null): Promise<void> {
    this.stopAccount();
    this.client.removeQueries({ predicate: (q) => !isPublicKey(q.queryKey) });
    this.account = null;
    if (account) await cacheStorage.removeItem(partitionOf(account));
  }

  private stopAccount(): void {
    this.accountGeneration++;
    this.accountStop?.();
    this.accountStop = null;
  }
}
