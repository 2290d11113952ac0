/**
 * Chunk digests of chunk bodies (common/transfer/chunk-digest.ts), computed on worker threads instead
 * of the event loop.
 *
 * The server hashes every chunk while it stores it. Done on the main thread, that was ~0.55 s of
 * event-loop time per GiB (profile of the 1 GiB upload bench: the largest item after I/O), time in
 * which no socket was read. Here each {@link StreamHasher} belongs to one of a few hash threads
 * (round robin): `update` posts the bytes in order — a buffer over a SharedArrayBuffer (what
 * CoalescingWriter hands over after each write) is read in place and acknowledged, a buffer that owns
 * its memory is moved, anything else is copied — and `digest` asks for the result. Order is kept
 * because one hasher always talks to the same thread, whose messages arrive in the order they were
 * posted.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { CHUNK_DIGEST_CJS } from '../../common/transfer/chunk-digest';

/** More threads than this gain nothing: one thread hashes ~1.9 GB/s, above a disk's write speed. */
const MAX_HASH_THREADS = 4;

export interface StreamHasher {
  /**
   * Adds bytes (in order). Over a SharedArrayBuffer: the thread reads them in place, so they must not
   * change until the returned promise settles. A buffer that owns its whole ArrayBuffer is moved: do
   * not use it after. Any other buffer is copied.
   */
  update(data: Buffer): Promise<void> | void;
  /** Hex chunk digest (chunk-digest.ts) of everything added; the hasher is finished afterwards. */
  digest(): Promise<string>;
  /** Forgets the state (a body that was cut or refused). */
  dispose(): void;
}

type ThreadMessage =
  | { op: 'update'; id: number; data: Uint8Array; ack?: number }
  | { op: 'digest'; id: number }
  | { op: 'drop'; id: number };
/** `ack`: the shared bytes of that update were read (sent even when hashing them failed). */
type ThreadAnswer = { id: number; digest: string } | { id: number; error: string } | { ack: number };

/**
 * The thread's code (plain CommonJS: worker threads do not inherit tsx's loader on Node 20): the
 * chunk digest of common/transfer/chunk-digest.ts, fed in order (CHUNK_DIGEST_CJS).
 */
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
${CHUNK_DIGEST_CJS}
const states = new Map();
parentPort.on('message', (m) => {
  try {
    if (m.op === 'update') {
      try {
        let st = states.get(m.id);
        if (!st) states.set(m.id, (st = chunkDigestState()));
        chunkDigestUpdate(st, m.data);
      } finally {
        if (m.ack !== undefined) parentPort.postMessage({ ack: m.ack });
      }
    } else if (m.op === 'digest') {
      const st = states.get(m.id) || chunkDigestState();
      states.delete(m.id);
      parentPort.postMessage({ id: m.id, digest: chunkDigestHex(st) });
    } else {
      states.delete(m.id);
    }
  } catch (error) {
    states.delete(m.id);
    parentPort.postMessage({ id: m.id, error: String((error && error.message) || error) });
  }
});
`;

class HashThread {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve: (hex: string) => void; reject: (error: Error) => void }>();
  /** Shared updates not yet read by the thread: ack → release. */
  private readonly reading = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  private nextAck = 1;

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true });
    worker.unref(); // idle hash threads never keep the server alive
    worker.on('message', (answer: ThreadAnswer) => {
      if ('ack' in answer) {
        this.reading.get(answer.ack)?.resolve();
        this.reading.delete(answer.ack);
        return;
      }
      const task = this.waiting.get(answer.id);
      if (!task) return;
      this.waiting.delete(answer.id);
      if ('digest' in answer) task.resolve(answer.digest);
      else task.reject(new Error(`hash thread: ${answer.error}`));
    });
    // A thread that dies fails the digests it owed; hashers on it give wrong-or-no answers, so they
    // fail too (their chunk is refused and re-sent). The next hasher starts a new thread.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const task of this.waiting.values()) task.reject(error);
      this.waiting.clear();
      for (const read of this.reading.values()) read.reject(error);
      this.reading.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`hash thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }

  post(message: ThreadMessage, transfer: ArrayBuffer[] = []): void {
    this.started().postMessage(message, transfer);
  }

  /** Posts shared bytes; settles once the thread has read them (rejects if it died first). */
  updateShared(id: number, data: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      const ack = this.nextAck++;
      this.reading.set(ack, { resolve, reject });
      this.post({ op: 'update', id, data, ack });
    });
  }

  digest(id: number): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post({ op: 'digest', id });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

/** A buffer that is the whole of its ArrayBuffer can be moved to another thread instead of copied. */
function ownsItsMemory(data: Buffer): data is Buffer<ArrayBuffer> {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer;
}

export class HashThreads {
  private readonly threads: HashThread[];
  private next = 0;
  private nextId = 1;

  constructor(size = Math.min(MAX_HASH_THREADS, Math.max(1, os.availableParallelism() - 1))) {
    this.threads = Array.from({ length: Math.max(1, size) }, () => new HashThread());
  }

  create(): StreamHasher {
    const thread = this.threads[this.next++ % this.threads.length]!;
    const id = this.nextId++;
    let finished = false;
    return {
      update(data) {
        if (finished) throw new Error('hasher already finished');
        if (data.length === 0) return;
        if (data.buffer instanceof SharedArrayBuffer) return thread.updateShared(id, data);
        if (ownsItsMemory(data)) thread.post({ op: 'update', id, data }, [data.buffer]);
        else thread.post({ op: 'update', id, data }); // copied by postMessage
      },
      digest() {
        finished = true;
        return thread.digest(id);
      },
      dispose() {
        if (finished) return;
        finished = true;
        thread.post({ op: 'drop', id });
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((t) => t.close()));
  }
}
