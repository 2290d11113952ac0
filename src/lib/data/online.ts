/** Whether the browser has a network, as TanStack Query's online manager sees it (events + navigator.onLine). */
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { isPublicKey } from './persistence';

export function useOnline(): boolean {
  return useSyncExternalStore(
    (listener) => onlineManager.subscribe(listener),
    () => onlineManager.isOnline(),
  );
}

/**
 * When the server last confirmed any of the signed-in account's data: the newest answer time in the
 * cache (restored answers keep the time they were fetched). 0 when nothing is cached.
 */
export function useLastConfirmedAt(): number {
  const client = useQueryClient();
  return useSyncExternalStore(
    (listener) => client.getQueryCache().subscribe(listener),
    () => client.getQueryCache().getAll().reduce((newest, q) => (isPublicKey(q.queryKey) ? newest : Math.max(newest, q.state.dataUpdatedAt)), 0),
  );
}
