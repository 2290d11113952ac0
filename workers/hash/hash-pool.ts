/**
 * A pool of hash workers behind the `HashChunk` signature the engine takes as a dependency.
 *
 * Each task sends the worker the Blob handle and a byte range: a Blob crosses postMessage by
 * reference (no bytes are copied), and the worker reads only that slice itself. Tasks go to the least
 * busy worker; an aborted task is dropped here at once (a digest in progress cannot be stopped, its
 * late answer is ignored). A worker starts with the first task given to it: in the browser most uploads
 * hash nothing (a file the second-upload probe does not find goes unhashed, the server's digests make its
 * fingerprint), and every tab's engine used to start its workers, each a thread with its own script, at
 * once (issue 43).
 */
import { SourceReadError, type HashChunk } from './sha256';

/** Message from the engine to a hash worker. */
export interface HashTaskMessage {
  taskId: number;
  source: Blob;
  start: number;
  end: number;
}
/** Answer of a hash worker; `bytesRead` is a report of a task still reading (workers that read in a browser send it). */
export type HashResultMessage = { taskId: number; digest: string } | { taskId: number; error: string } | { taskId: number; bytesRead: number };

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

/**
 * A task with no answer and no report of its read for this long means its worker is stuck: Chromium's
 * Blob reads can stop delivering for good (seen in the browser-upload bench: one 16 MiB slice of a
 * 512 MiB file just sent by another request never finished, and its upload sat at 96 % forever).
 * Browser hash workers report their reads every second, so a stuck read is caught in this time.
 */
export const HASH_TASK_TIMEOUT_MS = 15_000;

/**
 * The same for workers that never report their reads (the Node pool's threads): only the answer
 * counts, and the slowest honest task — a 64 MiB chunk (MAX_CHUNK_SIZE) from a slow network share at
 * 5 MB/s behind the thread's other task — takes well under this.
 */
export const HASH_TASK_TIMEOUT_SILENT_MS = 60_000;

/** A task is given to fresh workers this many times after its first worker stalled; then it fails. */
export const HASH_TASK_MAX_RESTARTS = 2;

export interface HashPool {
  hashChunk: HashChunk;
  size: number;
  terminate(): void;
}

interface PendingTask {
  message: HashTaskMessage;
  postedAt: number;
  restarts: number;
  resolve(hex: string): void;
  reject(error: unknown): void;
}

interface Slot {
  /** Started with the slot's first task: most uploads never hash (a file the probe does not find goes unhashed). */
  worker: HashWorkerLike | null;
  pending: Map<number, PendingTask>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * `now` is injectable for tests. A worker whose oldest task has waited the stall timeout (since it was
 * posted or last reported its read) is replaced by a new one and its tasks are posted again (a late
 * answer of the old worker cannot arrive: it is terminated); a task that stalls
 * HASH_TASK_MAX_RESTARTS + 1 workers fails as unreadable.
 */
export function createHashPool(size: number, createWorker: () => HashWorkerLike, now: () => number = Date.now): HashPool {
  // A pool whose workers report their reads is watched closely from the first report on.
  let timeoutMs = HASH_TASK_TIMEOUT_SILENT_MS;
  let nextTaskId = 1;
  let closed = false;

  const startWorker = (slot: Slot): HashWorkerLike => {
    const worker = createWorker();
    worker.addEventListener('message', ({ data }) => {
      if (slot.worker !== worker) return; // a replaced worker's answer
      const task = slot.pending.get(data.taskId);
      if (!task) return; // aborted meanwhile
      if ('bytesRead' in data) {
        timeoutMs = HASH_TASK_TIMEOUT_MS;
        task.postedAt = now(); // still reading: the stall clock starts again
        watch(slot); // a timer armed before the first report still counted the silent minute
        return;
      }
      slot.pending.delete(data.taskId);
      watch(slot);
      if ('digest' in data) task.resolve(data.digest);
      else task.reject(new SourceReadError(data.error)); // a worker fails only when reading the slice
    });
    return worker;
  };

  /** Arms the slot's timer for its oldest task (none when idle). */
  const watch = (slot: Slot) => {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    if (closed || slot.pending.size === 0) return;
    const oldest = Math.min(...[...slot.pending.values()].map((t) => t.postedAt));
    slot.timer = setTimeout(() => restartIfStalled(slot), Math.max(0, oldest + timeoutMs - now()));
  };

  const restartIfStalled = (slot: Slot) => {
    slot.timer = undefined;
    const stalled = [...slot.pending.values()].some((t) => now() - t.postedAt >= timeoutMs);
    if (stalled && !closed) {
      slot.worker?.terminate();
      slot.worker = startWorker(slot);
      for (const [taskId, task] of slot.pending) {
        if (task.restarts >= HASH_TASK_MAX_RESTARTS) {
          slot.pending.delete(taskId);
          task.reject(new SourceReadError(`reading the file stopped for ${timeoutMs / 1000} s`));
          continue;
        }
        task.restarts++;
        task.postedAt = now();
        slot.worker.postMessage(task.message);
      }
    }
    watch(slot);
  };

  const slots: Slot[] = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, pending: new Map(), timer: undefined }));

  const hashChunk: HashChunk = (source, start, end, signal) =>
    new Promise<string>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as unknown);
      const slot = slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      const taskId = nextTaskId++;
      const onAbort = () => {
        slot.pending.delete(taskId);
        watch(slot);
        reject(signal.reason as unknown);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const message: HashTaskMessage = { taskId, source, start, end };
      slot.pending.set(taskId, {
        message,
        postedAt: now(),
        restarts: 0,
        resolve: (hex) => (signal.removeEventListener('abort', onAbort), resolve(hex)),
        reject: (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
      });
      if (!slot.timer) watch(slot);
      slot.worker ??= startWorker(slot);
      slot.worker.postMessage(message);
    });

  return {
    hashChunk,
    size: slots.length,
    terminate: () => {
      closed = true;
      for (const slot of slots) {
        clearTimeout(slot.timer);
        slot.worker?.terminate();
      }
    },
  };
}
