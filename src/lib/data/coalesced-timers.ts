/**
 * One browser timer for all of TanStack Query's timeouts (its `timeoutManager` provider).
 *
 * Every query keeps a garbage-collection timer and every observer a stale timer; mounting 个人文件
 * cleared and set about sixty of them inside React's commit. Each browser timer call is cheap on its
 * own, but under a trace that records stacks (Lighthouse, DevTools) each cost ~2–3 ms of the longest
 * task of the load. Here a timeout is an entry in a table: clearing one touches no browser timer, and
 * a single browser timer is armed, after the current task (a microtask), for the earliest deadline.
 *
 * Callbacks run at or after their deadline, earliest first, as with `setTimeout`. A deadline past the
 * browser's 2^31-1 ms limit is waited for in steps instead of overflowing into "now".
 */

/** The calls the table needs from its host: the browser's, or a test's. */
export interface TimerHost {
  now(): number;
  setTimeout(callback: () => void, delay: number): unknown;
  clearTimeout(id: unknown): void;
  queueMicrotask(callback: () => void): void;
}

/** The shape of TanStack Query's `TimeoutProvider` with numeric ids. */
export interface CoalescedTimers {
  setTimeout(callback: () => void, delay: number): number;
  clearTimeout(id: number | undefined): void;
  setInterval(callback: () => void, delay: number): number;
  clearInterval(id: number | undefined): void;
  /** Timeouts waiting (tests, diagnostics). */
  readonly pending: number;
}

const MAX_BROWSER_DELAY_MS = 2 ** 31 - 1;

const browserHost: TimerHost = {
  // TanStack Query judges staleness by Date.now() too (and test fake timers move it).
  now: () => Date.now(),
  setTimeout: (callback, delay) => globalThis.setTimeout(callback, delay),
  clearTimeout: (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
  queueMicrotask: (callback) => globalThis.queueMicrotask(callback),
};

export function createCoalescedTimers(host: TimerHost = browserHost): CoalescedTimers {
  const due = new Map<number, { at: number; callback: () => void }>();
  let nextId = 1;
  let armed: { at: number; id: unknown } | null = null;
  let rearmQueued = false;

  function earliest(): number {
    let at = Infinity;
    for (const entry of due.values()) if (entry.at < at) at = entry.at;
    return at;
  }

  function arm(): void {
    rearmQueued = false;
    const at = earliest();
    // A browser timer already set for this deadline or before it stays: when it fires early it arms again.
    if (armed && armed.at <= at) return;
    if (armed) host.clearTimeout(armed.id);
    armed = null;
    if (at === Infinity) return;
    const delay = Math.min(MAX_BROWSER_DELAY_MS, Math.max(0, at - host.now()));
    armed = { at: host.now() + delay, id: host.setTimeout(fire, delay) };
  }

  function fire(): void {
    armed = null;
    const now = host.now();
    const ready = [...due].filter(([, entry]) => entry.at <= now).sort((a, b) => a[1].at - b[1].at || a[0] - b[0]);
    for (const [id] of ready) due.delete(id);
    for (const [, entry] of ready) {
      try {
        entry.callback();
      } catch (error) {
        // As a browser timer would: the error is reported and the other callbacks still run.
        host.queueMicrotask(() => {
          throw error;
        });
      }
    }
    arm();
  }

  function queueRearm(): void {
    if (rearmQueued) return;
    rearmQueued = true;
    host.queueMicrotask(arm);
  }

  return {
    setTimeout(callback, delay) {
      const id = nextId++;
      const at = host.now() + Math.max(0, Number.isFinite(delay) ? delay : 0);
      due.set(id, { at, callback });
      if (!armed || at < armed.at) queueRearm();
      return id;
    },
    clearTimeout(id) {
      // The browser timer stays armed: when it fires with nothing due it arms for what is left.
      if (id !== undefined) due.delete(id);
    },
    // Only refetchInterval uses these (no query of ours today): the browser's own.
    setInterval: (callback, delay) => globalThis.setInterval(callback, delay) as unknown as number,
    clearInterval: (id) => globalThis.clearInterval(id),
    get pending() {
      return due.size;
    },
  };
}
