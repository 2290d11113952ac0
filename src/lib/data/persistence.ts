/**
 * Keeps the query cache in IndexedDB between visits, in partitions: 'public' (queries whose key
 * starts with 'public': brand and logo, needed before login) and one per tenant and account (every
 * other query). Only the partition of the account the server last confirmed is ever loaded; another
 * account's answers are never hydrated into this tab.
 */
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
 * Writes one partition, one write at a time; a save asked for while one is being written waits and
 * takes the newest cache only (those in between are never written). How often saves are asked for is
 * keepPersisted's business, so this adds no throttle of its own: a change that must reach disk at once
 * (an invalidation) is not held back by the last write. `live` is asked at the moment of writing: a
 * partition wiped (logout) or left (another account) meanwhile is never written again, so a wiped
 * account's answers cannot come back to disk.
 */
function persisterFor(key: string, live: () => boolean): Persister {
  let queued: PersistedClient | null = null;
  let writing: Promise<void> = Promise.resolve();
  const writeQueued = async () => {
    const client = queued!;
    queued = null;
    if (live()) await cacheStorage.setItem(key, serializeClient(client));
  };
  return {
    persistClient(client) {
      const alreadyQueued = queued !== null;
      queued = client;
      // A cache that cannot be written (storage full, private mode) still serves this visit from memory.
      if (!alreadyQueued) writing = writing.then(writeQueued).catch(() => undefined);
      return writing;
    },
    async restoreClient() {
      const saved = await cacheStorage.getItem(key);
      return saved ? (JSON.parse(saved) as PersistedClient) : undefined;
    },
    removeClient: () => cacheStorage.removeItem(key),
  };
}

/** After a save, fetched answers gather this long before the next one (a page mounting makes hundreds). */
const SAVE_EVERY_MS = 1000;
const SAVED_CHANGES = new Set(['added', 'removed', 'updated']);

interface CacheEvent {
  type: string;
  action?: { type: string; manual?: boolean };
}

/**
 * Changes that make what is on disk wrong rather than only older: an invalidation (the server changed:
 * on disk the old answer is still marked fresh, and a reload would show it without asking for up to
 * its staleTime), an answer the app wrote itself (an optimistic edit, a count pushed by the server),
 * a query removed. They are saved right after their task, not after the once-a-second wait: a full
 * navigation within that second used to load the earlier save and show, say, 用户管理's department
 * tree without the department just created.
 */
const mustSaveAtOnce = (event: CacheEvent): boolean =>
  event.type === 'removed' || (event.type === 'updated' && (event.action?.type === 'invalidate' || (event.action?.type === 'success' && event.action.manual === true)));

/** When the page goes away or out of sight (a phone may then end it without another word). */
export type OnPageLeave = (leave: () => void) => () => void;

const browserPageLeave: OnPageLeave = (leave) => {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const onHidden = () => {
    if (document.visibilityState === 'hidden') leave();
  };
  window.addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', onHidden);
  return () => {
    window.removeEventListener('pagehide', leave);
    document.removeEventListener('visibilitychange', onHidden);
  };
};

/**
 * Saves the cache, dehydrated at the moment of saving: right after the task that changed it when none
 * was saved in the last second, then at most once a second for fetched answers. Changes that make the
 * disk wrong (mustSaveAtOnce) are saved right after their task whatever the last save, and a save still
 * waiting is made at once when the page is left (pagehide) or hidden. TanStack's
 * persistQueryClientSubscribe dehydrates the whole cache on every change instead (hundreds while a page
 * mounts, each query added, fetching, answered) and writes the first one in the middle of the change's
 * own task: main-thread work the first page's render waited behind. The wait is one of TanStack's
 * timeouts (the app's coalesced timer, coalesced-timers.ts), not a browser timer of its own.
 */
function keepPersisted(client: QueryClient, persister: Persister, dehydrateOptions: DehydrateOptions, onPageLeave: OnPageLeave): () => void {
  let timer: { id: ReturnType<typeof timeoutManager.setTimeout>; at: number } | null = null;
  let lastSaveAt = -Infinity;
  const save = () => {
    if (timer !== null) timeoutManager.clearTimeout(timer.id);
    timer = null;
    lastSaveAt = Date.now();
    void persistQueryClientSave({ queryClient: client, persister, buster: CACHE_BUSTER, dehydrateOptions });
  };
  const saveBy = (at: number) => {
    if (timer !== null && timer.at <= at) return;
    if (timer !== null) timeoutManager.clearTimeout(timer.id);
    timer = { id: timeoutManager.setTimeout(save, Math.max(0, at - Date.now())), at };
  };
  const onChange = (event: CacheEvent) => {
    if (!SAVED_CHANGES.has(event.type)) return;
    saveBy(mustSaveAtOnce(event) ? Date.now() : lastSaveAt + SAVE_EVERY_MS);
  };
  const stopQueries = client.getQueryCache().subscribe(onChange);
  const stopMutations = client.getMutationCache().subscribe(onChange);
  const stopLeave = onPageLeave(() => {
    if (timer !== null) save();
  });
  return () => {
    stopQueries();
    stopMutations();
    stopLeave();
    if (timer !== null) timeoutManager.clearTimeout(timer.id);
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

  constructor(
    private readonly client: QueryClient,
    private readonly onPageLeave: OnPageLeave = browserPageLeave,
  ) {}

  /** Loads the public partition and keeps it written. */
  async start(): Promise<void> {
    if (this.publicStop) return;
    const persister = persisterFor('public', () => true);
    await persistQueryClientRestore({ queryClient: this.client, persister, maxAge: CACHE_MAX_AGE_MS, buster: CACHE_BUSTER });
    this.publicStop = keepPersisted(this.client, persister, { shouldDehydrateQuery: (q) => succeeded(q) && isPublicKey(q.queryKey) }, this.onPageLeave);
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
    this.accountStop = keepPersisted(this.client, persister, { shouldDehydrateQuery: (q) => succeeded(q) && !isPublicKey(q.queryKey) }, this.onPageLeave);
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
