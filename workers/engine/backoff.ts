/** Waiting between retries: exponential growth with full jitter, so many clients never retry in step. */
import { RETRY_BASE_DELAY_MS, RETRY_MAX_DELAY_MS } from '../../common/transfer/constants';

/** Delay before retry number `attempt` (1-based): uniform in [0, min(max, base·2^(attempt-1))). */
export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** Resolves after `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as unknown);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as unknown);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
