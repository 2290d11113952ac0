/**
 * A document preview's answer before there is a page to show: the rendition is still being made
 * (asked again with backoff until it exists or the preview closes), or there is none.
 */
import { classifyFailure } from '../../../common/api/failure';
import { ERRORS } from '../../../common/api/errors';

export type PreviewAnswer = { kind: 'pending' } | { kind: 'unsupported'; message: string } | { kind: 'failed'; message: string };

/** What a preview route's refusal means for the viewer (status and parsed JSON body, or null). */
export function classifyPreviewAnswer(status: number, body: unknown, fallback: string): PreviewAnswer {
  const failure = classifyFailure(status, body);
  if (failure.kind === 'badRequest') {
    if (failure.errorCode === ERRORS.PREVIEW_PENDING.code) return { kind: 'pending' };
    if (failure.errorCode === ERRORS.PREVIEW_UNSUPPORTED.code) return { kind: 'unsupported', message: ERRORS.PREVIEW_UNSUPPORTED.message };
    return { kind: 'failed', message: failure.errorMessage || fallback };
  }
  // Accepted, made later (a 202 without a coded body).
  if (status === 202) return { kind: 'pending' };
  return { kind: 'failed', message: fallback };
}

/** Waits before the `attempt`-th (0-based) ask again: 1 s, 2 s, 4 s, 8 s, then every 15 s. */
export function pendingDelayMs(attempt: number): number {
  return Math.min(15_000, 1000 * 2 ** Math.max(0, attempt));
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
