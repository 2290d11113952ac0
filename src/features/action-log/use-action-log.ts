import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ActionLogEntry, ActionLogFilter, ActionLogListResponse } from '../../../common/api/action-log';
import { listActionLog } from './action-log-api';

export interface ActionLogRows {
  items: ActionLogEntry[];
  loading: boolean;
  fetchingMore: boolean;
  hasMore: boolean;
  /** How far back a filter without an index has looked so far (null: it is not scanning). */
  scannedTo: number | null;
  head: ActionLogListResponse['head'] | null;
  error: boolean;
  loadMore: () => void;
  reload: () => void;
}

/**
 * The action log of a filter, through the data layer (account partition): keyset pages appended as
 * the list is scrolled. A filter is its own cache entry, so an answer for an old filter never lands
 * in the list of a new one. Always asked again when shown: the log grows all the time.
 */
export function useActionLog(filter: ActionLogFilter): ActionLogRows {
  const query = useInfiniteQuery({
    queryKey: ['account', 'actionLog', filter],
    queryFn: ({ pageParam, signal }) => listActionLog(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: ActionLogListResponse) => last.nextCursor,
    staleTime: 0,
  });
  const pages = query.data?.pages;
  const items = useMemo(() => pages?.flatMap((p) => p.items) ?? [], [pages]);
  const last = pages?.[pages.length - 1];
  return {
    items,
    loading: query.isPending,
    fetchingMore: query.isFetchingNextPage,
    hasMore: query.hasNextPage,
    scannedTo: last?.scannedTo ?? null,
    head: pages?.[0]?.head ?? null,
    error: query.isError,
    loadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    reload: () => void query.refetch(),
  };
}
