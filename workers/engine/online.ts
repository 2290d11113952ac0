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

/** How often a subscribed browser signal reads navigator.onLine besides listening to its events. */
export const ONLINE_POLL_MS = 2_000;

export function browserOnlineSignal(): OnlineSignal {
  const scope = globalThis as unknown as Partial<EventTargetLike> & { navigator?: { onLine?: boolean } };
  return {
    // Without navigator.onLine (Node), assume online: a failed request then counts as a plain error.
    isOnline: () => scope.navigator?.onLine ?? true,
    subscribe(listener) {
      if (typeof scope.addEventListener !== 'function' || typeof scope.removeEventListener !== 'function') return () => undefined;
      let last = scope.navigator?.onLine ?? true;
      const tell = (up: boolean) => {
        last = up;
        listener(up);
      };
      const online = () => tell(true);
      const offline = () => tell(false);
      scope.addEventListener('online', online);
      scope.addEventListener('offline', offline);
      // A worker does not always get the events: under Chromium's network emulation its navigator.onLine
      // turns true again with no 'online' event (an upload queued offline then never started). Reading
      // it now and then catches that; a change the events already told is not told twice.
      const poll = setInterval(() => {
        const now = scope.navigator?.onLine ?? true;
        if (now !== last) tell(now);
      }, ONLINE_POLL_MS);
      return () => {
        clearInterval(poll);
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
