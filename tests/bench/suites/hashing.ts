/**
 * Hashing throughput on the same random data, in 4 MiB chunks (the default chunk size):
 *  - one engine hash worker, in a worker thread as in the browser: the code hash.worker.ts runs
 *    (createInThreadHashChunk: read the chunk's slice of a Blob, digest it with WebCrypto) driven the
 *    way the engine's pool drives a worker, HASH_TASKS_PER_WORKER chunks in flight. This is the
 *    "hash MB/s per worker" (hashWorkerMBps, hashRatio); WebCrypto digests on Node's thread pool, so
 *    the worker keeps more than one core busy (hashWorkerCores);
 *  - the same worker with one chunk at a time (hashWorkerSequentialMBps), and WebCrypto's digest on
 *    ready buffers (no Blob read), to show where the time goes;
 *  - Node's native SHA-256 (the tree chunk digest, common/transfer/chunk-digest.ts) on the main thread: the ceiling to compare with;
 *  - spark-md5 (pure JS) on a smaller slice: the baseline the design card's package list implies.
 * Every digest the worker computes is checked against node:crypto. Each figure is the best of a few
 * rounds, so a noisy neighbour hurts less.
 */
import { randomFillSync } from 'node:crypto';
import { chunkDigestHex } from '../../support/chunk-digest';
import { once } from 'node:events';
import SparkMD5 from 'spark-md5';
import { DEFAULT_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import { HASH_TASKS_PER_WORKER } from '../../../workers/hash/hash-pool';
import type { WorkerRound } from '../hash-worker';
import { megabytesPerSecond, MIB, type BenchModule } from '../lib/report';
import { round1 } from '../lib/transfer-context';
import { startTsWorker } from '../lib/ts-worker';

/** 256 MiB for the fast hashers; spark-md5 (~100 MB/s) gets 64 MiB to keep the run short. */
const DATA_BYTES = 256 * MIB;
const SPARK_BYTES = 64 * MIB;
const ROUNDS = 5;
const SPARK_ROUNDS = 1;

function bestOf(times: number[]): number {
  return Math.min(...times);
}

const fastest = (rounds: WorkerRound[]): WorkerRound => rounds.reduce((best, r) => (r.ms < best.ms ? r : best));

interface WorkerResult {
  /** The best round of one worker as the engine drives it (HASH_TASKS_PER_WORKER in flight). */
  scheduled: WorkerRound;
  /** The best round with one chunk at a time. */
  sequential: WorkerRound;
  digestOnlyMs: number;
  digests: string[];
}

async function workerWebCrypto(data: SharedArrayBuffer, chunkSize: number): Promise<WorkerResult> {
  const worker = startTsWorker(new URL('../hash-worker.ts', import.meta.url));
  try {
    await once(worker, 'message'); // 'ready'
    worker.postMessage({ data, chunkSize, rounds: ROUNDS });
    const [result] = (await once(worker, 'message')) as [{ scheduled: WorkerRound[]; sequential: WorkerRound[]; digestOnlyTimes: number[]; digests: string[] }];
    return { scheduled: fastest(result.scheduled), sequential: fastest(result.sequential), digestOnlyMs: bestOf(result.digestOnlyTimes), digests: result.digests };
  } finally {
    await worker.terminate();
  }
}

function nativeSha256(bytes: Uint8Array, chunkSize: number): { ms: number; digests: string[] } {
  const times: number[] = [];
  let digests: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    digests = [];
    for (let offset = 0; offset < bytes.length; offset += chunkSize) {
      digests.push(chunkDigestHex(bytes.subarray(offset, offset + chunkSize)));
    }
    times.push(performance.now() - start);
  }
  return { ms: bestOf(times), digests };
}

function sparkMd5(bytes: Uint8Array, chunkSize: number): number {
  const times: number[] = [];
  for (let round = 0; round < SPARK_ROUNDS; round++) {
    const start = performance.now();
    for (let offset = 0; offset < bytes.length; offset += chunkSize) {
      const chunk = bytes.slice(offset, offset + chunkSize);
      SparkMD5.ArrayBuffer.hash(chunk.buffer);
    }
    times.push(performance.now() - start);
  }
  return bestOf(times);
}

export const hashingBenchmark: BenchModule = {
  name: 'hashing',
  columns: ['hasher', 'MiB hashed', 'MB/s', 'ratio vs native'],
  async run() {
    const chunkSize = DEFAULT_CHUNK_SIZE;
    // Random bytes, generated once and shared with the worker without copying.
    const shared = new SharedArrayBuffer(DATA_BYTES);
    const bytes = new Uint8Array(shared);
    for (let offset = 0; offset < bytes.length; offset += 64 * MIB) randomFillSync(bytes, offset, Math.min(64 * MIB, bytes.length - offset));

    const worker = await workerWebCrypto(shared, chunkSize);
    const native = nativeSha256(bytes, chunkSize);
    if (worker.digests.join() !== native.digests.join()) throw new Error('the engine hash worker and native SHA-256 disagree');
    const sparkMs = sparkMd5(bytes.subarray(0, SPARK_BYTES), chunkSize);

    const hashWorkerMBps = megabytesPerSecond(DATA_BYTES, worker.scheduled.ms);
    const workerCores = worker.scheduled.cpuMs / worker.scheduled.ms;
    const sequentialMBps = megabytesPerSecond(DATA_BYTES, worker.sequential.ms);
    const digestOnlyMBps = megabytesPerSecond(DATA_BYTES, worker.digestOnlyMs);
    const hashNativeMBps = megabytesPerSecond(DATA_BYTES, native.ms);
    const sparkMd5MBps = megabytesPerSecond(SPARK_BYTES, sparkMs);
    const ratio = (mbps: number) => Math.round((mbps / hashNativeMBps) * 1000) / 1000;
    const row = (label: string, mib: number, mbps: number) => ({
      label,
      cells: { 'MiB hashed': String(mib), 'MB/s': mbps.toFixed(0), 'ratio vs native': ratio(mbps).toFixed(2) },
    });
    return {
      rows: [
        row(`SHA-256 WebCrypto, one engine hash worker (${HASH_TASKS_PER_WORKER} chunks in flight, ${workerCores.toFixed(2)} cores busy)`, DATA_BYTES / MIB, hashWorkerMBps),
        row('the same worker, one chunk at a time', DATA_BYTES / MIB, sequentialMBps),
        row('SHA-256 WebCrypto digest only (worker, no Blob read)', DATA_BYTES / MIB, digestOnlyMBps),
        row('SHA-256 node:crypto (native, main thread)', DATA_BYTES / MIB, hashNativeMBps),
        row('MD5 spark-md5 (baseline)', SPARK_BYTES / MIB, sparkMd5MBps),
      ],
      metrics: {
        // One worker as the engine runs it, against one native thread: the per-worker figure.
        hashWorkerMBps: round1(hashWorkerMBps),
        hashRatio: ratio(hashWorkerMBps),
        hashWorkerCores: Math.round(workerCores * 100) / 100,
        hashWorkerSequentialMBps: round1(sequentialMBps),
        hashWorkerSequentialRatio: ratio(sequentialMBps),
        hashWorkerDigestOnlyMBps: round1(digestOnlyMBps),
        hashNativeMBps: round1(hashNativeMBps),
        sparkMd5MBps: round1(sparkMd5MBps),
        chunkSize,
        hashBytes: DATA_BYTES,
        sparkMd5Bytes: SPARK_BYTES,
      },
    };
  },
};

