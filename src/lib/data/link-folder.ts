/**
 * An opened share link's folders (the link pages' opened view; calls in ./link-visit.ts): their own
 * query client, in memory only — a visit belongs to no account, and its key is a bearer secret that
 * the app's persisted cache must never hold.
 */
import { QueryClient, QueryClientProvider, useInfiniteQuery } from '@tanstack/react-query';
import { createElement, useMemo, type ReactNode } from 'react';
import type { LinkListResponse } from '../../../common/api/sharing';
import { listLink } from './link-visit';

/** In memory only, for this page: nothing of a visit is persisted. */
const visitQueries = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

/** The query client of an opened link's reads (the app's own, persisted one never holds a visit). */
export function LinkVisitData({ children }: { children: ReactNode }) {
  return createElement(QueryClientProvider, { client: visitQueries }, children);
}

/** One folder of an opened link. */
export function useLinkFolder(visit: string | null, parentId: string | null) {
  const query = useInfiniteQuery({
    queryKey: ['visit', visit, parentId],
    queryFn: ({ pageParam, signal }) => listLink(visit!, parentId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last: LinkListResponse) => last.nextCursor,
    enabled: visit !== null,
    staleTime: 0,
    gcTime: 60_000,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  return { items, path: query.data?.pages[0]?.path ?? [], query };
}
