/**
 * The 手势密码 lock as the rest of the app hears of it, without importing the lock's feature:
 *  - the server answered GESTURE_LOCKED: this session's lock is up (another tab or window of the same
 *    session put it up, or the server kept it across a reload). The API client calls
 *    `gestureLockedByServer`; the lock gate (src/features/gesture-lock) listens and shows its screen;
 *  - the right pattern was drawn (`gestureUnlocked`): what waited for the lock goes on (the transfer
 *    engine's held uploads, src/features/transfer).
 */
const lockedListeners = new Set<() => void>();
const unlockedListeners = new Set<() => void>();

export function onGestureLockedByServer(listener: () => void): () => void {
  lockedListeners.add(listener);
  return () => lockedListeners.delete(listener);
}

export function gestureLockedByServer(): void {
  for (const listener of lockedListeners) listener();
}

export function onGestureUnlocked(listener: () => void): () => void {
  unlockedListeners.add(listener);
  return () => unlockedListeners.delete(listener);
}

export function gestureUnlocked(): void {
  for (const listener of unlockedListeners) listener();
}
