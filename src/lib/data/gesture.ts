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
import { gestureUnlocked } from '../gesture-lock-signal';
import { queryClient } from './query-client';

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

/**
 * The lock screen is up: the server locks the session too, so another tab or a script holding its
 * cookie is refused until the pattern is drawn. Quiet: where it cannot (offline, the switch just
 * turned off) the screen stays up all the same and the status query settles it.
 */
export async function lockGestureOnServer(): Promise<void> {
  await api.call(GESTURE.lock, undefined, { onError: () => undefined }).catch(() => undefined);
}

/** Unlock: resolves when right; `onError` decides what a wrong pattern or the signing out shows. */
export async function verifyGesture(pattern: Pattern, onError: ErrorHandler): Promise<true> {
  const answer = await api.call(GESTURE.verify, { pattern: [...pattern] }, { onError });
  // The server lifted the session's lock: the cached status must not put it up again.
  queryClient.setQueryData<GestureStatus>(GESTURE_STATUS_KEY, (s) => s && { ...s, locked: false });
  gestureUnlocked();
  return answer;
}
