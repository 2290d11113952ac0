import { useInfiniteQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useStore, type Atom } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import { editCachedPages, reloadCachedPages, type EntryPage } from './edit-cached-pages';

export type { EntryPage } from './edit-cached-pages';

/** Loads one keyset page; `cursor` null = the first page. */
export type PageLoader<T extends FileEntry> = (cursor: string | null, signal: AbortSignal) => Promise<EntryPage<T>>;

/** One listing: its cache key in the data layer (account partition) and how to load its pages. */
export interface Listing<T extends FileEntry> {
  key: QueryKey;
  load: PageLoader<T>;
}

export interface EntryPages<T extends FileEntry> {
  items: T[];
  loading: boolean;
  /** Whether any page of this listing is known (cached or answered): offline, false means never shown on this device. */
  cached: boolean;
  hasMore: boolean;
  loadMore: () => void;
  reload: () => void;
  /** Replaces rows in place (after lock, favorite... answered with the changed entries). */
  patch: (changed: readonly FileEntry[]) => void;
  /** Drops rows (deleted, moved away) without a round trip. */
  drop: (ids: readonly string[]) => void;
}

const NO_LISTING: QueryKey = ['files', 'none'];

/**
 * What a listing's observers hear of while it is asked again in the background (`quiet.current`): its
 * answer (new rows) or its failure, not its start. An upload reaching 已完成 asks the open folder again;
 * before, the whole file browser rendered once for the signal and once more as the refetch began
 * (fetchStatus, the footer's 加载中…), both before the answer with the new row came (issue 43).
 */
export const QUIET_REFRESH_PROPS = ['data', 'error'] as const;

export interface QuietFlag {
  current: boolean;
}

/** notifyOnChangeProps for a listing: the answer only while a quiet refresh runs, else what the render reads. */
export const quietNotifyProps = (quiet: QuietFlag) => (): Array<(typeof QUIET_REFRESH_PROPS)[number]> | undefined => (quiet.current ? [...QUIET_REFRESH_PROPS] : undefined);

/** Asks a listing again from its first page (reloadCachedPages) with its observers quiet until the answer. */
export async function quietReload<T extends FileEntry>(client: QueryClient, key: QueryKey, quiet: QuietFlag): Promise<void> {
  quiet.current = true;
  try {
    await reloadCachedPages<T>(client, key);
  } finally {
    quiet.current = false;
  }
}

/**
 * Keyset-paged entries of one listing, through the data layer: a folder opened before shows its
 * cached rows at once (also offline) while the first page is asked again; pages are appended as
 * `loadMore` is called. A new listing (folder, sort, keyword) is another cache entry, so an answer
 * for an old listing never lands in the new one. A change of `changes` (a counter bumped after uploads
 * and other changes, read from the store, not rendered) asks the listing again from the first page in
 * the background: the caller renders once, with the answer.
 */
export function useEntryPages<T extends FileEntry>(listing: Listing<T> | null, changes: Atom<number>): EntryPages<T> {
  const client = useQueryClient();
  const store = useStore();
  const key = listing?.key ?? NO_LISTING;
  // One flag and one notifyOnChangeProps for the hook's life: the function reads the flag when the query calls it.
  const [quiet] = useState<QuietFlag>(() => ({ current: false }));
  const notifyOnChangeProps = useMemo(() => quietNotifyProps(quiet), [quiet]);
  const query = useInfiniteQuery({
    notifyOnChangeProps,
    queryKey: key,
    enabled: listing !== null,
    queryFn: ({ pageParam, signal }) => listing!.load(pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: EntryPage<T>) => last.nextCursor,
    // A folder opened again shows its cached rows at once and is always asked again: other tabs,
    // devices and people change folders, and a list must never stay behind for 30 s.
    staleTime: 0,
  });

  const edit = useCallback((change: (items: T[]) => T[]) => {
    void editCachedPages(client, key, change);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys are compared by value
  }, [client, JSON.stringify(key)]);

  const reload = useCallback(() => {
    void reloadCachedPages<T>(client, key);
    // A change here (a move, a restore, an upload) may change other listings too: they are asked
    // again when next shown.
    void client.invalidateQueries({ queryKey: ['files'], refetchType: 'none' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys are compared by value
  }, [client, JSON.stringify(key)]);

  const refresh = useCallback(() => {
    void quietReload<T>(client, key, quiet);
    void client.invalidateQueries({ queryKey: ['files'], refetchType: 'none' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keys are compared by value
  }, [client, JSON.stringify(key)]);
  useEffect(() => store.sub(changes, refresh), [store, changes, refresh]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const data = query.data;
  const items = useMemo(() => data?.pages.flatMap((p) => p.items) ?? [], [data]);
  return {
    items,
    loading: query.fetchStatus === 'fetching',
    cached: data !== undefined,
    hasMore: hasNextPage,
    loadMore,
    reload,
    patch: (changed) => {
      const byId = new Map(changed.map((e) => [e.id, e]));
      edit((list) => list.map((item) => (byId.has(item.id) ? ({ ...item, ...byId.get(item.id) } as T) : item)));
    },
    drop: (ids) => {
      const gone = new Set(ids);
      edit((list) => list.filter((item) => !gone.has(item.id)));
    },
  };
}
