import type { LeaderWork } from './ports';

/**
 * Runs the registered leader work for one lead at a time: `begin` gives every work a fresh signal,
 * `end` aborts it and waits until every work has stopped (a new lead begins only after that, so one
 * process never runs two copies of a job).
 */
export class LeadRunner {
  private readonly works: LeaderWork[] = [];
  private current: { abort: AbortController; done: Promise<void> } | null = null;

  constructor(private readonly onError: (err: unknown, message: string) => void) {}

  add(work: LeaderWork): void {
    this.works.push(work);
  }

  get running(): boolean {
    return this.current !== null;
  }

  begin(): void {
    if (this.current) return;
    const abort = new AbortController();
    const done = Promise.all(
      this.works.map(async (work) => {
        try {
          await work(abort.signal);
        } catch (err) {
          if (!abort.signal.aborted) this.onError(err, 'leader work failed');
        }
      }),
    ).then(() => undefined);
    this.current = { abort, done };
  }

  async end(): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.abort.abort();
    await current.done;
    if (this.current === current) this.current = null;
  }
}

/** Resolves when `signal` aborts (at once if it has). */
export function aborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Waits `ms`, or less when `signal` aborts first (never rejects). The wait alone keeps no process alive. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref?.();
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
