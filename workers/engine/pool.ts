/**
 * Runs `task` over `items` with at most `concurrency` in flight. The first failure aborts the others
 * (their requests are cancelled, not left running) and is rethrown; an abort of `signal` stops all.
 */
export async function runPool<T>(
  items: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  task: (item: T, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  signal.throwIfAborted();
  const inner = new AbortController();
  const forwardAbort = () => inner.abort(signal.reason);
  signal.addEventListener('abort', forwardAbort, { once: true });
  let next = 0;
  let failure: { error: unknown } | undefined;

  const lane = async () => {
    while (!failure && !inner.signal.aborted && next < items.length) {
      const item = items[next++] as T;
      try {
        await task(item, inner.signal);
      } catch (error) {
        if (!failure) {
          failure = { error };
          inner.abort(error);
        }
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, lane));
  } finally {
    signal.removeEventListener('abort', forwardAbort);
  }
  signal.throwIfAborted();
  if (failure) throw failure.error;
}
