/**
 * One task at a time per key, inside this process (chunk writes and the merge of one upload never
 * overlap). A deployment with several server processes would need a database lock instead.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/**
 * Work in progress per key that others may wait for without queueing behind it (the chunk requests
 * of an upload being received: chunk/exist waits for them, so a client that asks again right after its
 * request was cut sees what that request left). Inside this process, like KeyedLock.
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
