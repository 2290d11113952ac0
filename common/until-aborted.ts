/** What `untilAborted` uses of an AbortSignal (common/ is built without DOM or Node types). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * `promise`, or the abort reason as soon as `signal` aborts (at once when it already has). The
 * promise itself runs on: for work shared with others, or an answer someone else may still take.
 */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignalLike): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
