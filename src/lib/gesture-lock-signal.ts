/**
 * The server answered GESTURE_LOCKED: this session's 手势密码 lock is up (another tab or window of the
 * same session put it up, or the server kept it across a reload). The API client calls
 * `gestureLockedByServer`; the lock gate (src/features/gesture-lock) listens and shows its lock screen.
 */
const listeners = new Set<() => void>();

export function onGestureLockedByServer(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function gestureLockedByServer(): void {
  for (const listener of listeners) listener();
}
