/**
 * Loading a page chunk fails after 120 s (spec §8/§9): a stalled request on a bad network would
 * otherwise leave a spinner forever. The error tells the boundary to offer a retry.
 */
import { CHUNK_LOAD_TIMEOUT_MS } from '../../common/constants';

export class ChunkLoadError extends Error {
  constructor(
    message: string,
    readonly timedOut: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/**
 * Settles like `load()`, but rejects with a ChunkLoadError after `timeoutMs`, and wraps a failed
 * load in a ChunkLoadError too (the dynamic import's own error says little to a user).
 */
export function loadWithTimeout<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`page chunk not loaded after ${timeoutMs} ms`, true)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError('page chunk failed to load', false, { cause: error }));
      },
    );
  });
}
