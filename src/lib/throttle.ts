/** Runs `fn` at most once per `intervalMs`; a call inside the interval is run once at its end. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, intervalMs: number): ((...args: A) => void) & { cancel(): void } {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending: A | null = null;
  const run = (args: A): void => {
    last = Date.now();
    fn(...args);
  };
  const throttled = (...args: A): void => {
    const wait = last + intervalMs - Date.now();
    if (wait <= 0 && !timer) {
      run(args);
      return;
    }
    pending = args;
    if (!timer) {
      timer = setTimeout(() => {
        timer = null;
        if (pending) {
          const a = pending;
          pending = null;
          run(a);
        }
      }, Math.max(0, wait));
    }
  };
  throttled.cancel = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return throttled;
}
