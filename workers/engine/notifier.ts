/**
 * Fans snapshots out to subscribers at most once per interval. Progress events can come thousands of
 * times a second (10k small files, parallel chunks); the UI only needs a few frames a second, and
 * each snapshot crosses the worker boundary as a structured clone.
 */
export type Listener<T> = (value: T) => unknown;

/**
 * Default spacing of notifications that carry progress only (bytes, speed). Once a second, as a
 * download list or a copy dialog moves: every snapshot makes the page render the panel and draw a
 * frame, and at 5 a second that was most of the renderer's CPU during a large upload, ~20× what a bare
 * XHR of the same File costs it (issue 43; tests/bench/PROFILE-browser-upload.md, 2026-11-30). State
 * changes do not wait for it (PROMPT_NOTIFY_MS).
 */
export const NOTIFY_INTERVAL_MS = 1_000;

/**
 * Spacing after a state change (已完成, 已暂停, 失败): shown at once rather than up to an interval
 * later, while a burst of changes still makes one notification.
 */
export const PROMPT_NOTIFY_MS = 30;

export class ThrottledNotifier<T> {
  private readonly listeners = new Map<number, Listener<T>>();
  private nextId = 1;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the pending timer fires. */
  private dueAt = Infinity;
  private lastSentAt = -Infinity;

  constructor(
    private readonly build: () => T,
    private readonly now: () => number,
    private readonly intervalMs: number = NOTIFY_INTERVAL_MS,
  ) {}

  /** Adds a listener and sends it the current value right away, so it never starts empty. */
  subscribe(listener: Listener<T>): number {
    const id = this.nextId++;
    this.listeners.set(id, listener);
    this.deliver(listener, this.build());
    return id;
  }

  unsubscribe(id: number): void {
    this.listeners.delete(id);
  }

  /**
   * Something changed: notify now if the interval has passed, else once at its end. `prompt` (a state
   * changed, not just progress): within PROMPT_NOTIFY_MS of the last notification instead.
   */
  changed(prompt = false): void {
    if (this.listeners.size === 0) return;
    const dueAt = this.lastSentAt + (prompt ? Math.min(PROMPT_NOTIFY_MS, this.intervalMs) : this.intervalMs);
    if (this.timer !== null) {
      if (dueAt >= this.dueAt) return;
      clearTimeout(this.timer);
    }
    this.dueAt = dueAt;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.dueAt = Infinity;
      this.flush();
    }, Math.max(0, dueAt - this.now()));
  }

  /** Sends the current value to every listener now. */
  flush(): void {
    if (this.listeners.size === 0) return;
    this.lastSentAt = this.now();
    const value = this.build();
    for (const listener of this.listeners.values()) this.deliver(listener, value);
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = Infinity;
    this.listeners.clear();
  }

  private deliver(listener: Listener<T>, value: T): void {
    // A Comlink proxy returns a promise; a listener whose page is gone rejects. Drop it then.
    try {
      const result = listener(value);
      if (result instanceof Promise) result.catch(() => this.dropListener(listener));
    } catch {
      this.dropListener(listener);
    }
  }

  private dropListener(listener: Listener<T>): void {
    for (const [id, l] of this.listeners) if (l === listener) this.listeners.delete(id);
  }
}
