/**
 * A pool of hash workers behind the `HashChunk` signature the engine takes as a dependency.
 *
 * Each task sends the worker the Blob handle and a byte range: a Blob crosses postMessage by
 * reference (no bytes are copied), and the worker reads only that slice itself. Tasks go to the least
 * busy worker; an aborted task is dropped here at once (a digest in progress cannot be stopped, its
 * late answer is ignored).
 */
import { SourceReadError, type HashChunk } from './sha256';

/** Message from the engine to a hash worker. */
export interface HashTaskMessage {
  taskId: number;
  source: Blob;
  start: number;
  end: number;
}
/** Answer of a hash worker. */
export type HashResultMessage = { taskId: number; digest: string } | { taskId: number; error: string };

/** What the pool needs from a worker: the subset of `Worker` it uses (testable with a fake). */
export interface HashWorkerLike {
  postMessage(message: HashTaskMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HashResultMessage>) => void): void;
  terminate(): void;
}

/** More hash workers than this gives nothing: the disk and the upload are the limit by then. */
export const MAX_HASH_WORKERS = 4;

/**
 * Tasks the engine keeps in flight per hash worker. With two, a worker reads the next slice while
 * WebCrypto digests the current one off its thread (both browsers run digests on their own threads),
 * so the read is hidden behind the digest; each task has its own reused buffer, so memory stays at
 * HASH_TASKS_PER_WORKER chunks per worker.
 */
export const HASH_TASKS_PER_WORKER = 2;

/** Pool size from the number of logical cores: one per core, at least 1, at most MAX_HASH_WORKERS. */
export function hashPoolSize(hardwareConcurrency: number | undefined): number {
  const cores = Number.isFinite(hardwareConcurrency) && hardwareConcurrency! > 0 ? Math.floor(hardwareConcurrency!) : 1;
  return Math.max(1, Math.min(MAX_HASH_WORKERS, cores));
}

export interface HashPool {
  hashChunk: HashChunk;
  size: number;
  terminate(): void;
}

export function createHashPool(size: number, createWorker: () => HashWorkerLike): HashPool {
  let nextTaskId = 1;
  const workers = Array.from({ length: Math.max(1, size) }, () => {
    const worker = createWorker();
    const pending = new Map<number, { resolve: (hex: string) => void; reject: (e: unknown) => void }>();
    worker.addEventListener('message', ({ data }) => {
      const task = pending.get(data.taskId);
      if (!task) return; // aborted meanwhile
      pending.delete(data.taskId);
      if ('digest' in data) task.resolve(data.digest);
      else task.reject(new SourceReadError(data.error)); // a worker fails only when reading the slice
    });
    return { worker, pending };
  });

  const hashChunk: HashChunk = (source, start, end, signal) =>
    new Promise<string>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as unknown);
      const slot = workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const taskId = nextTaskId++;
      const onAbort = () => {
        slot.pending.delete(taskId);
        reject(signal.reason as unknown);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      slot.pending.set(taskId, {
        resolve: (hex) => (signal.removeEventListener('abort', onAbort), resolve(hex)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
      });
      slot.worker.postMessage({ taskId, source, start, end });
    });

  return {
    hashChunk,
    size: workers.length,
    terminate: () => workers.forEach((w) => w.worker.terminate()),
  };
}
