/**
 * The hash worker pool of the engine under Node: the browser's pool (workers/hash/hash-pool.ts,
 * same scheduling and abort handling) over `worker_threads` instead of Web Workers.
 *
 * A disk-backed Blob cannot be posted to a worker thread (Node 20 aborts), so a task whose range is a
 * recorded disk range (disk-ranges.ts) goes to a thread as {path, start, end}: the thread reads the
 * range into a buffer it reuses and hashes it with Node's native SHA-256. Any other Blob is hashed
 * in this thread with the engine's own in-thread hasher, so every Blob still works.
 */
import os from 'node:os';
import { CHUNK_DIGEST_CJS } from '../../common/transfer/chunk-digest';
import { Worker } from 'node:worker_threads';
import { createHashPool, hashPoolSize, type HashPool, type HashResultMessage, type HashTaskMessage, type HashWorkerLike } from '../hash/hash-pool';
import { createInThreadHashChunk, type HashChunk } from '../hash/sha256';
import { diskRangeOf } from './disk-ranges';

/** What a hash thread is sent: a byte range of a file. */
interface DiskHashTask {
  taskId: number;
  path: string;
  start: number;
  end: number;
}

/**
 * The thread's code (plain CommonJS, so it needs no TypeScript loader). One buffer of the largest
 * range seen is kept and reused: memory stays at one chunk per thread.
 */
const HASH_THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const { createHash } = require('node:crypto');
${CHUNK_DIGEST_CJS}
let buffer = Buffer.alloc(0);
parentPort.on('message', ({ taskId, path, start, end }) => {
  try {
    const length = end - start;
    if (buffer.length < length) buffer = Buffer.allocUnsafe(length);
    const fd = fs.openSync(path, 'r');
    try {
      for (let done = 0; done < length; ) {
        const n = fs.readSync(fd, buffer, done, length - done, start + done);
        if (n === 0) throw new Error(path + ' is shorter than ' + end + ' bytes');
        done += n;
      }
    } finally {
      fs.closeSync(fd);
    }
    const st = chunkDigestState();
    chunkDigestUpdate(st, buffer.subarray(0, length));
    parentPort.postMessage({ taskId, digest: chunkDigestHex(st) });
  } catch (error) {
    parentPort.postMessage({ taskId, error: String((error && error.message) || error) });
  }
});
`;

/** One worker thread behind the `HashWorkerLike` face the pool drives. */
function hashThread(inThread: HashChunk): HashWorkerLike {
  let thread: Worker | null = null;
  const listeners: Array<(event: MessageEvent<HashResultMessage>) => void> = [];
  const outstanding = new Set<number>();
  const deliver = (data: HashResultMessage) => {
    outstanding.delete(data.taskId);
    for (const listener of listeners) listener({ data } as MessageEvent<HashResultMessage>);
  };
  // Started on first use, so an engine that never hashes a disk file starts no thread.
  const started = (): Worker => {
    if (thread) return thread;
    const t = new Worker(HASH_THREAD_SOURCE, { eval: true });
    t.unref(); // an idle pool never keeps the process alive
    t.on('message', deliver);
    // A thread that dies fails its tasks (the engine retries them); the next task starts a new one.
    t.on('error', (error) => {
      for (const taskId of [...outstanding]) deliver({ taskId, error: `hash thread failed: ${error.message}` });
    });
    t.on('exit', () => {
      if (thread === t) thread = null;
      for (const taskId of [...outstanding]) deliver({ taskId, error: 'hash thread exited' });
    });
    thread = t;
    return t;
  };
  return {
    postMessage({ taskId, source, start, end }: HashTaskMessage) {
      outstanding.add(taskId);
      const range = diskRangeOf(source, start, end);
      if (range) {
        const task: DiskHashTask = { taskId, path: range.path, start: range.start, end: range.end };
        started().postMessage(task);
        return;
      }
      inThread(source, start, end, new AbortController().signal).then(
        (digest) => deliver({ taskId, digest }),
        (error: unknown) => deliver({ taskId, error: error instanceof Error ? error.message : String(error) }),
      );
    },
    addEventListener(_type, listener) {
      listeners.push(listener);
    },
    terminate() {
      const t = thread;
      thread = null;
      void t?.terminate();
    },
  };
}

/** A pool of `size` hash threads (default: sized from the cores as the browser sizes its pool). */
export function createNodeHashPool(size = hashPoolSize(os.availableParallelism())): HashPool {
  const inThread = createInThreadHashChunk();
  return createHashPool(Math.max(1, size), () => hashThread(inThread));
}
