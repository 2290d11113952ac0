import { createHmac, randomBytes } from 'node:crypto';
import { chunkDigestHex } from '../../support/chunk-digest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { createHashPool, HASH_TASK_MAX_RESTARTS, HASH_TASK_TIMEOUT_MS, HASH_TASK_TIMEOUT_SILENT_MS, hashPoolSize, MAX_HASH_WORKERS, type HashResultMessage, type HashTaskMessage, type HashWorkerLike } from '../../../workers/hash/hash-pool';
import { createInThreadHashChunk, readRangeInto, SourceReadError } from '../../../workers/hash/sha256';
import { computeProof, hmacSha256Hex } from '../../../workers/engine/proof';

const nodeSha = chunkDigestHex;

/** A hash "worker" running the real worker code path (createInThreadHashChunk) in this thread. */
function inThreadWorker(log: HashTaskMessage[]): HashWorkerLike {
  const hash = createInThreadHashChunk();
  let listener: ((e: MessageEvent<HashResultMessage>) => void) | undefined;
  return {
    postMessage(task) {
      log.push(task);
      hash(task.source, task.start, task.end, new AbortController().signal).then(
        (digest) => listener?.({ data: { taskId: task.taskId, digest } } as MessageEvent<HashResultMessage>),
        (e: unknown) => listener?.({ data: { taskId: task.taskId, error: String(e) } } as MessageEvent<HashResultMessage>),
      );
    },
    addEventListener: (_type, l) => (listener = l),
    terminate: () => undefined,
  };
}

describe('hash worker pool', () => {
  it('sizes itself from hardwareConcurrency: at least 1, at most MAX_HASH_WORKERS', () => {
    expect(hashPoolSize(undefined)).toBe(1);
    expect(hashPoolSize(0)).toBe(1);
    expect(hashPoolSize(2)).toBe(2);
    expect(hashPoolSize(64)).toBe(MAX_HASH_WORKERS);
  });

  it('digests every chunk like node:crypto, spreading tasks over the workers (slices, not the whole file)', async () => {
    const bytes = new Uint8Array(randomBytes(MIN_CHUNK_SIZE * 5 + 123));
    const blob = new Blob([bytes]);
    const logs: HashTaskMessage[][] = [[], [], []];
    let n = 0;
    const pool = createHashPool(3, () => inThreadWorker(logs[n++]!));
    const ranges = Array.from({ length: 6 }, (_, i) => [i * MIN_CHUNK_SIZE, Math.min(bytes.length, (i + 1) * MIN_CHUNK_SIZE)] as const);
    const signal = new AbortController().signal;
    const digests = await Promise.all(ranges.map(([s, e]) => pool.hashChunk(blob, s, e, signal)));
    expect(digests).toEqual(ranges.map(([s, e]) => nodeSha(bytes.subarray(s, e))));
    expect(logs.map((l) => l.length)).toEqual([2, 2, 2]);
    for (const task of logs.flat()) expect(task.end - task.start).toBeLessThanOrEqual(MIN_CHUNK_SIZE);
  });

  it('starts no worker before it has a chunk to hash, then one per slot as tasks come (an upload that hashes nothing starts none)', async () => {
    const logs: HashTaskMessage[][] = [];
    const pool = createHashPool(2, () => {
      const log: HashTaskMessage[] = [];
      logs.push(log);
      return inThreadWorker(log);
    });
    expect(pool.size).toBe(2);
    expect(logs).toHaveLength(0);
    const signal = new AbortController().signal;
    const blob = new Blob(['abcdef']);
    const first = pool.hashChunk(blob, 0, 3, signal);
    expect(logs).toHaveLength(1);
    const second = pool.hashChunk(blob, 3, 6, signal);
    expect(logs).toHaveLength(2);
    await expect(Promise.all([first, second])).resolves.toEqual([nodeSha(new TextEncoder().encode('abc')), nodeSha(new TextEncoder().encode('def'))]);
    await pool.hashChunk(blob, 0, 6, signal);
    expect(logs).toHaveLength(2);
    pool.terminate();
  });

  it('an aborted task rejects at once; a worker read failure becomes SourceReadError', async () => {
    const pool = createHashPool(1, () => inThreadWorker([]));
    const controller = new AbortController();
    const pending = pool.hashChunk(new Blob(['abc']), 0, 3, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
    const broken = { size: 3, slice: () => ({ arrayBuffer: () => Promise.reject(new Error('gone')) }) } as unknown as Blob;
    await expect(pool.hashChunk(broken, 0, 3, new AbortController().signal)).rejects.toBeInstanceOf(SourceReadError);
  });
});

describe('hash worker pool: a stuck worker', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** Workers that answer every task, except that the first `stuck` workers created never answer anything. */
  function workersStuckFirst(stuck: number) {
    const created: Array<{ terminated: boolean; tasks: number[] }> = [];
    const factory = (): HashWorkerLike => {
      const record = { terminated: false, tasks: [] as number[] };
      const answers = created.length >= stuck;
      created.push(record);
      let listener: ((e: MessageEvent<HashResultMessage>) => void) | undefined;
      return {
        postMessage(task) {
          record.tasks.push(task.taskId);
          if (answers) queueMicrotask(() => listener?.({ data: { taskId: task.taskId, digest: `d${task.start}` } } as MessageEvent<HashResultMessage>));
        },
        addEventListener: (_type, l) => (listener = l),
        terminate: () => (record.terminated = true),
      };
    };
    return { created, factory };
  }

  it('is replaced after HASH_TASK_TIMEOUT_SILENT_MS without an answer, and its tasks are posted to the new worker', async () => {
    const { created, factory } = workersStuckFirst(1);
    const pool = createHashPool(1, factory);
    const signal = new AbortController().signal;
    const digests = Promise.all([pool.hashChunk(new Blob(['x']), 0, 1, signal), pool.hashChunk(new Blob(['y']), 5, 6, signal)]);
    await vi.advanceTimersByTimeAsync(HASH_TASK_TIMEOUT_SILENT_MS - 1_000);
    expect(created).toHaveLength(1); // still patient
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(digests).resolves.toEqual(['d0', 'd5']);
    expect(created.map((w) => w.terminated)).toEqual([true, false]);
    expect(created[1]!.tasks).toEqual(created[0]!.tasks);
    // An idle pool arms no timer.
    expect(vi.getTimerCount()).toBe(0);
    pool.terminate();
  });

  it('a worker that reports its reads is given time while it reads, and replaced soon after its reads stop', async () => {
    const created: HashTaskMessage[][] = [];
    const listeners: Array<(e: MessageEvent<HashResultMessage>) => void> = [];
    const pool = createHashPool(1, () => {
      const tasks: HashTaskMessage[] = [];
      created.push(tasks);
      return {
        postMessage: (task) => tasks.push(task),
        addEventListener: (_type, l) => listeners.push(l),
        terminate: () => undefined,
      };
    });
    const say = (worker: number, data: HashResultMessage) => listeners[worker]!({ data } as MessageEvent<HashResultMessage>);
    const digest = pool.hashChunk(new Blob(['x']), 0, 1, new AbortController().signal);
    const taskId = created[0]![0]!.taskId;
    // A slow read that keeps reporting: never replaced, however long it takes.
    for (let s = 1; s <= 100; s++) {
      await vi.advanceTimersByTimeAsync(1_000);
      say(0, { taskId, bytesRead: s * 1_000 });
    }
    expect(created).toHaveLength(1);
    // The read stops: replaced after HASH_TASK_TIMEOUT_MS, not the silent workers' minute.
    await vi.advanceTimersByTimeAsync(HASH_TASK_TIMEOUT_MS);
    expect(created).toHaveLength(2);
    expect(created[1]!.map((t) => t.taskId)).toEqual([taskId]);
    say(0, { taskId, digest: 'late answer of the replaced worker' });
    say(1, { taskId, digest: 'abc' });
    await expect(digest).resolves.toBe('abc');
    pool.terminate();
  });

  it('from the first report on, a read that stops is caught after HASH_TASK_TIMEOUT_MS, not the silent minute', async () => {
    const created: HashTaskMessage[][] = [];
    const listeners: Array<(e: MessageEvent<HashResultMessage>) => void> = [];
    const pool = createHashPool(1, () => {
      const tasks: HashTaskMessage[] = [];
      created.push(tasks);
      return { postMessage: (task) => tasks.push(task), addEventListener: (_type, l) => listeners.push(l), terminate: () => undefined };
    });
    void pool.hashChunk(new Blob(['x']), 0, 1, new AbortController().signal).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(1_000);
    listeners[0]!({ data: { taskId: created[0]![0]!.taskId, bytesRead: 10 } } as MessageEvent<HashResultMessage>);
    await vi.advanceTimersByTimeAsync(HASH_TASK_TIMEOUT_MS);
    expect(created).toHaveLength(2);
    pool.terminate();
  });

  it('a task that stalls every worker it is given fails as unreadable, not forever pending', async () => {
    const { created, factory } = workersStuckFirst(Infinity);
    const pool = createHashPool(1, factory);
    const digest = pool.hashChunk(new Blob(['x']), 0, 1, new AbortController().signal);
    const outcome = digest.then(() => 'resolved', (e: unknown) => e);
    await vi.advanceTimersByTimeAsync(HASH_TASK_TIMEOUT_SILENT_MS * (HASH_TASK_MAX_RESTARTS + 1));
    expect(await outcome).toBeInstanceOf(SourceReadError);
    expect(created).toHaveLength(HASH_TASK_MAX_RESTARTS + 2); // the first, its replacements, and the one now idle
    pool.terminate();
  });
});

describe('reading and hashing slices', () => {
  it('readRangeInto reads a slice into the memory of the given buffer (a BYOB read moves it to the returned view)', async () => {
    const bytes = new Uint8Array(randomBytes(100_000));
    const memory = new ArrayBuffer(70_000);
    const into = new Uint8Array(memory, 4_000, 60_000);
    const view = await readRangeInto(new Blob([bytes]), 10_000, 60_000, into);
    expect(Buffer.from(view).equals(Buffer.from(bytes.subarray(10_000, 60_000)))).toBe(true);
    // Node's Blob stream is a byte stream: no copy into a separate buffer, same offset in the moved memory.
    expect(memory.byteLength).toBe(0);
    expect(view.buffer.byteLength).toBe(70_000);
    expect(view.byteOffset).toBe(4_000);
  });

  it('readRangeInto reports the bytes read so far as the read goes', async () => {
    const bytes = new Uint8Array(randomBytes(300_000));
    const reports: number[] = [];
    const view = await readRangeInto(new Blob([bytes]), 0, bytes.length, new Uint8Array(bytes.length), (n) => reports.push(n));
    expect(view.length).toBe(bytes.length);
    expect(reports.at(-1)).toBe(bytes.length);
    expect(reports.every((n, i) => i === 0 || n > reports[i - 1]!)).toBe(true);
  });

  it('readRangeInto copies the pieces of a stream that is not a byte stream into the given buffer', async () => {
    const bytes = new Uint8Array(randomBytes(30_000));
    const pieces = [bytes.subarray(0, 7_000), bytes.subarray(7_000, 19_000), bytes.subarray(19_000)];
    const source = {
      size: bytes.length,
      slice: () => ({ arrayBuffer: () => Promise.reject(new Error('unused')), stream: () => new ReadableStream<Uint8Array>({ start: (c) => { pieces.forEach((p) => c.enqueue(p)); c.close(); } }) }),
    };
    const into = new Uint8Array(30_000);
    const view = await readRangeInto(source, 0, bytes.length, into);
    expect(view.buffer).toBe(into.buffer);
    expect(Buffer.from(view).equals(Buffer.from(bytes))).toBe(true);
  });

  it('the in-thread hasher stays correct across BYOB reads that move its buffer', async () => {
    const bytes = new Uint8Array(randomBytes(MIN_CHUNK_SIZE * 3));
    const hashChunk = createInThreadHashChunk();
    const never = new AbortController().signal;
    const blob = new Blob([bytes]);
    for (let i = 0; i < 3; i++) {
      expect(await hashChunk(blob, i * MIN_CHUNK_SIZE, (i + 1) * MIN_CHUNK_SIZE, never)).toBe(nodeSha(bytes.subarray(i * MIN_CHUNK_SIZE, (i + 1) * MIN_CHUNK_SIZE)));
    }
    // A shorter range after them.
    expect(await hashChunk(blob, 5, 1_005, never)).toBe(nodeSha(bytes.subarray(5, 1_005)));
  });
});

describe('second-upload proof', () => {
  const bytes = new Uint8Array(randomBytes(300_000));
  const nonce = randomBytes(32).toString('hex');
  const ranges = [
    { start: 5, end: 65_541 },
    { start: 200_000, end: 200_010 },
    { start: 0, end: 3 },
  ];
  const expected = (() => {
    const h = createHmac('sha256', Buffer.from(nonce, 'hex'));
    for (const r of ranges) h.update(bytes.subarray(r.start, r.end));
    return h.digest('hex');
  })();

  it('is HMAC-SHA256 keyed by the nonce over the ranges in order (WebCrypto and hash-wasm agree with node:crypto)', async () => {
    expect(await computeProof(new Blob([bytes]), nonce, ranges)).toBe(expected);
    expect(await computeProof(new Blob([bytes]), nonce, ranges, null)).toBe(expected);
    expect(await computeProof(new Blob([bytes]), nonce, [...ranges].reverse())).not.toBe(expected);
  });

  it('refuses ranges outside the file', async () => {
    await expect(computeProof(new Blob([bytes]), nonce, [{ start: 0, end: bytes.length + 1 }])).rejects.toThrow(RangeError);
    expect(await hmacSha256Hex(nonce, new Uint8Array(0), null)).toBe(createHmac('sha256', Buffer.from(nonce, 'hex')).digest('hex'));
  });
});
