/**
 * 手势密码's calls (common/api/endpoints/gesture.ts). The status (whether the lock applies and the
 * tenant's idle time) is an ordinary cached read of the account's partition, so an installed app
 * started offline still knows it must lock. The pattern is only ever sent to the server; neither it
 * nor anything derived from it is kept on this device.
 */
import { useQuery, type QueryClient, type UseQueryResult } from '@tanstack/react-query';
import { GESTURE, type GestureStatus } from '../../../common/api/endpoints/gesture';
import type { Pattern } from '../../../common/gesture/pattern';
import type { ErrorHandler } from '../api-client';
import { api } from '../api';

export const GESTURE_STATUS_KEY = ['account', 'gestureStatus'] as const;

export function useGestureStatusQuery(): UseQueryResult<GestureStatus> {
  return useQuery({
    queryKey: GESTURE_STATUS_KEY,
    queryFn: ({ signal }) => api.call(GESTURE.status, undefined, { signal, onError: () => undefined }),
    refetchOnMount: 'always',
    // The admin may switch the lock on or off while the app is open.
    refetchInterval: 5 * 60_000,
  });
}

function remember(client: QueryClient, status: GestureStatus): GestureStatus {
  client.setQueryData(GESTURE_STATUS_KEY, status);
  return status;
}

export async function setGesture(client: QueryClient, pattern: Pattern): Promise<GestureStatus> {
  return remember(client, await api.call(GESTURE.set, { pattern: [...pattern] }));
}

export async function clearGesture(client: QueryClient): Promise<GestureStatus> {
  return remember(client, await api.call(GESTURE.clear));
}

/** Unlock: resolves when right; `onError` decides what a wrong pattern or the signing out shows. */
export function verifyGesture(pattern: Pattern, onError: ErrorHandler): Promise<true> {
  return api.call(GESTURE.verify, { pattern: [...pattern] }, { onError });
}
