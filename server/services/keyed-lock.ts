/**
 * One task at a time per key, inside this process. Across the server processes of one database the
 * composition root's Locks (services/locks.ts) take this first, then the database's lock.
 */
export class KeyedLock {
  /** Per key: settles when the last task queued so far has run (never rejects). */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` once every task queued before it under `key` has settled. Aborting `signal` while it
   * waits rejects with the signal's reason and never runs `task` (the queue behind it keeps its order).
   */
  async run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    try {
      await untilSettledOrAborted(previous, signal);
      return await task();
    } finally {
      done();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** Resolves when `turn` does; rejects with the reason once `signal` aborts first. */
function untilSettledOrAborted(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return turn;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

/**
 * Work in progress per key that others may wait for without queueing behind it (the chunk requests
 * of an upload being received: chunk/exist waits for them, so a client that asks again right after its
 * request was cut sees what that request left). Inside this process only: a chunk/exist on another
 * process does not wait for these (it may then list fewer bytes of a partial; the client sends them again).
 */
export class PendingWork {
  private readonly pending = new Map<string, Set<Promise<void>>>();

  /** Runs `task`, registered under `key` until it settles; its outcome is the caller's. */
  async track<T>(key: string, task: () => Promise<T>): Promise<T> {
    let set = this.pending.get(key);
    if (!set) this.pending.set(key, (set = new Set()));
    const result = task();
    const entry = result.then(
      () => undefined,
      () => undefined,
    );
    set.add(entry);
    try {
      return await result;
    } finally {
      set.delete(entry);
      if (set.size === 0 && this.pending.get(key) === set) this.pending.delete(key);
    }
  }

  /** Resolves once everything tracked under `key` when called has settled, or after `timeoutMs`. */
  async settled(key: string, timeoutMs: number): Promise<void> {
    const set = this.pending.get(key);
    if (!set) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all([...set]), timeout]);
    clearTimeout(timer);
  }
}
