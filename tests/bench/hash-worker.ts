/**
 * worker_threads entry for the hashing benchmark: runs the engine's own chunk hashing off the main
 * thread, the way the browser's hash worker does (workers/hash/hash.worker.ts runs
 * createInThreadHashChunk on each task the pool sends it, reading the slice of a Blob and digesting it
 * with WebCrypto). Says "ready" once loaded, receives the shared test data once, and answers with the
 * time of each round.
 */
import { parentPort } from 'node:worker_threads';
import { HASH_TASKS_PER_WORKER } from '../../workers/hash/hash-pool';
import { chunkCount, chunkRange } from '../../common/transfer/protocol';
import { createInThreadHashChunk, createSha256Hex } from '../../workers/hash/sha256';

interface HashRequest {
  data: SharedArrayBuffer;
  chunkSize: number;
  rounds: number;
}

export interface WorkerRound {
  ms: number;
  /** CPU time of the whole process (this thread, plus Node's thread pool where WebCrypto digests). */
  cpuMs: number;
}

/**
 * One worker as the engine drives it (hash-pool.ts keeps `inFlight` tasks per worker, each reading its
 * slice and digesting it). WebCrypto digests run on Node's thread pool, so two in flight can use more
 * than one core: the CPU time is returned with the wall time.
 */
async function engineWorker(blob: Blob, chunkSize: number, inFlight: number): Promise<{ round: WorkerRound; digests: string[] }> {
  const hashChunk = createInThreadHashChunk(createSha256Hex());
  const signal = new AbortController().signal;
  const count = chunkCount(blob.size, chunkSize);
  const digests: string[] = new Array<string>(count);
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const index = next++;
        const { start: from, end } = chunkRange(index, blob.size, chunkSize);
        digests[index] = await hashChunk(blob, from, end, signal);
      }
    }),
  );
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { round: { ms, cpuMs: (cpu.user + cpu.system) / 1000 }, digests };
}

parentPort!.once('message', async ({ data, chunkSize, rounds }: HashRequest) => {
  // A Blob over the bytes, so hashing reads slices of it exactly like it reads a picked File.
  const blob = new Blob([new Uint8Array(data).slice()]); // Blob parts cannot be shared memory
  const sha256 = createSha256Hex();
  const scheduled: WorkerRound[] = [];
  const sequential: WorkerRound[] = [];
  const digestOnlyTimes: number[] = [];
  let digests: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const asRun = await engineWorker(blob, chunkSize, HASH_TASKS_PER_WORKER);
    scheduled.push(asRun.round);
    digests = asRun.digests;
    sequential.push((await engineWorker(blob, chunkSize, 1)).round);
    // The digest alone on ready buffers: separates WebCrypto's cost from the cost of reading the Blob.
    const start = performance.now();
    for (let offset = 0; offset < data.byteLength; offset += chunkSize) {
      await sha256(new Uint8Array(data, offset, Math.min(chunkSize, data.byteLength - offset)).slice().buffer);
    }
    digestOnlyTimes.push(performance.now() - start);
  }
  parentPort!.postMessage({ scheduled, sequential, digestOnlyTimes, digests });
});
parentPort!.postMessage('ready');
