/**
 * The one client data layer every page reads through (TanStack Query). Answers are served
 * stale-while-revalidate from memory and, across reloads and without network, from the per-account
 * IndexedDB partition (persistence.ts). Pages never call fetch themselves: they use the hooks of
 * queries.ts or their feature's own query hooks built on this client.
 */
import { onlineManager, QueryClient, timeoutManager } from '@tanstack/react-query';
import { ApiCallError } from '../api-client';
import { createCoalescedTimers } from './coalesced-timers';

// Before any query exists: timers of two providers cannot cancel each other's.
timeoutManager.setTimeoutProvider(createCoalescedTimers());

/**
 * How long a cached answer may be shown offline (and kept in memory without observers). Timers take
 * at most 2^31-1 ms (24.8 days): a longer gcTime overflows and collects every query at once.
 */
export const CACHE_MAX_AGE_MS = 14 * 24 * 3600 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Shown at once from cache, refreshed in the background when older than this.
        staleTime: 30_000,
        gcTime: CACHE_MAX_AGE_MS,
        // The first attempt always goes out (the browser's online flag is often wrong on intranets);
        // a failed one pauses until the network is back instead of failing the page.
        networkMode: 'offlineFirst',
        refetchOnWindowFocus: false,
        // The server answered: retrying will not change its mind. Network failures: twice more.
        retry: (failures, error) => !(error instanceof ApiCallError) && failures < 2,
      },
    },
  });
}

export const queryClient = createQueryClient();

/**
 * TanStack Query assumes online until an 'offline' event arrives; a page loaded without network
 * never gets one. Start from the browser's own flag so such a page pauses its requests at once.
 */
export function syncOnlineFlagAtStart(): void {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
}
