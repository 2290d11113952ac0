/**
 * Whether the network is up, as an engine dependency. The browser default reads navigator.onLine
 * and listens to 'online'/'offline'; Node tests drive their own.
 */
export interface OnlineSignal {
  isOnline(): boolean;
  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: (online: boolean) => void): () => void;
}

interface EventTargetLike {
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

export function browserOnlineSignal(): OnlineSignal {
  const scope = globalThis as unknown as Partial<EventTargetLike> & { navigator?: { onLine?: boolean } };
  return {
    // Without navigator.onLine (Node), assume online: a failed request then counts as a plain error.
    isOnline: () => scope.navigator?.onLine ?? true,
    subscribe(listener) {
      if (typeof scope.addEventListener !== 'function' || typeof scope.removeEventListener !== 'function') return () => undefined;
      const online = () => listener(true);
      const offline = () => listener(false);
      scope.addEventListener('online', online);
      scope.addEventListener('offline', offline);
      return () => {
        scope.removeEventListener?.('online', online);
        scope.removeEventListener?.('offline', offline);
      };
    },
  };
}

/** Resolves once `signal` says online (at once if it already does); rejects when `abort` fires. */
export function waitUntilOnline(online: OnlineSignal, abort: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (abort.aborted) return reject(abort.reason as unknown);
    if (online.isOnline()) return resolve();
    const onAbort = () => {
      unsubscribe();
      reject(abort.reason as unknown);
    };
    const unsubscribe = online.subscribe((up) => {
      if (!up) return;
      unsubscribe();
      abort.removeEventListener('abort', onAbort);
      resolve();
    });
    abort.addEventListener('abort', onAbort, { once: true });
  });
}
