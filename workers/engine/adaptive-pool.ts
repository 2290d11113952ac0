/**
 * Chunk requests in flight per item, adapting to the server: a 429 halves the limit (never below 1),
 * and after successes it climbs back one step per CONCURRENCY_RAISE_INTERVAL_MS (as Uppy's S3
 * multipart uploader does), up to the configured maximum.
 */

/** Uppy raises the limit again every 2 s after a 429. */
export const CONCURRENCY_RAISE_INTERVAL_MS = 2_000;

export class ConcurrencyLimit {
  private lastChangeAt: number;

  constructor(
    private value: number,
    readonly max: number,
    private readonly now: () => number,
    private readonly onChange: (value: number) => void = () => undefined,
  ) {
    this.value = Math.max(1, Math.min(max, value));
    this.lastChangeAt = now();
  }

  get current(): number {
    return this.value;
  }

  rateLimited(): void {
    const next = Math.max(1, Math.floor(this.value / 2));
    this.lastChangeAt = this.now();
    this.set(next);
  }

  succeeded(): void {
    if (this.value >= this.max || this.now() - this.lastChangeAt < CONCURRENCY_RAISE_INTERVAL_MS) return;
    this.lastChangeAt = this.now();
    this.set(this.value + 1);
  }

  private set(next: number): void {
    if (next === this.value) return;
    this.value = next;
    this.onChange(next);
  }
}

/**
 * Runs `task` over `items` with at most `limit()` in flight, reading the limit each time a slot frees.
 * The first failure aborts the others (their requests are cancelled) and is rethrown once every
 * running task has settled, so no late progress lands after the pool returned.
 */
export function runAdaptivePool<T>(
  items: readonly T[],
  limit: () => number,
  signal: AbortSignal,
  task: (item: T, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as unknown);
    const inner = new AbortController();
    const forward = () => inner.abort(signal.reason);
    signal.addEventListener('abort', forward, { once: true });
    let next = 0;
    let active = 0;
    let failure: { error: unknown } | undefined;

    const settleIfIdle = () => {
      if (active > 0) return;
      if (!failure && !inner.signal.aborted && next < items.length) return;
      signal.removeEventListener('abort', forward);
      if (signal.aborted) reject(signal.reason as unknown);
      else if (failure) reject(failure.error);
      else resolve();
    };
    const launch = () => {
      while (!failure && !inner.signal.aborted && next < items.length && active < Math.max(1, limit())) {
        const item = items[next++] as T;
        active++;
        task(item, inner.signal).then(
          () => {
            active--;
            launch();
          },
          (error: unknown) => {
            active--;
            if (!failure) {
              failure = { error };
              inner.abort(error);
            }
            settleIfIdle();
          },
        );
      }
      settleIfIdle();
    };
    launch();
  });
}
