/**
 * worker_threads entry for the hashing benchmark: runs the engine's own chunk hashing
 * (workers/hash/sha256.ts, WebCrypto) off the main thread, the way the browser worker does.
 * Says "ready" once loaded, receives the shared test data once, and answers with the time of each round.
 */
import { parentPort } from 'node:worker_threads';
import { HASH_TASKS_PER_WORKER } from '../../workers/hash/hash-pool';
import { chunkCount, chunkRange } from '../../common/transfer/protocol';
import { createInThreadHashChunk, createSha256Hex, hashChunks } from '../../workers/hash/sha256';

interface HashRequest {
  data: SharedArrayBuffer;
  chunkSize: number;
  rounds: number;
}

/**
 * One worker as the engine schedules it (hash.worker.ts + hash-pool.ts): HASH_TASKS_PER_WORKER chunk
 * tasks in flight, each reading its slice and digesting it. WebCrypto digests run on Node's thread
 * pool, so two in flight can use two cores: the CPU time is returned with the wall time.
 */
async function engineScheduled(blob: Blob, chunkSize: number): Promise<{ ms: number; cpuMs: number }> {
  const hashChunk = createInThreadHashChunk(createSha256Hex());
  const signal = new AbortController().signal;
  const count = chunkCount(blob.size, chunkSize);
  let next = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: HASH_TASKS_PER_WORKER }, async () => {
      while (next < count) {
        const { start: from, end } = chunkRange(next++, blob.size, chunkSize);
        await hashChunk(blob, from, end, signal);
      }
    }),
  );
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000 };
}

parentPort!.once('message', async ({ data, chunkSize, rounds }: HashRequest) => {
  // A Blob over the bytes, so hashing goes through slice().arrayBuffer() exactly like a File does.
  const blob = new Blob([new Uint8Array(data).slice()]); // Blob parts cannot be shared memory
  const sha256 = createSha256Hex();
  const engineTimes: number[] = [];
  const digestOnlyTimes: number[] = [];
  const scheduled: { ms: number; cpuMs: number }[] = [];
  let digests: string[] = [];
  for (let i = 0; i < rounds; i++) {
    let start = performance.now();
    digests = await hashChunks(blob, chunkSize, { sha256 });
    engineTimes.push(performance.now() - start);
    // The digest alone on ready buffers: separates WebCrypto's cost from the cost of reading the Blob.
    start = performance.now();
    for (let offset = 0; offset < data.byteLength; offset += chunkSize) {
      await sha256(new Uint8Array(data, offset, Math.min(chunkSize, data.byteLength - offset)).slice().buffer);
    }
    digestOnlyTimes.push(performance.now() - start);
    scheduled.push(await engineScheduled(blob, chunkSize));
  }
  parentPort!.postMessage({ engineTimes, digestOnlyTimes, scheduled, firstDigest: digests[0] });
});
parentPort!.postMessage('ready');
