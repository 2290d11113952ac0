/**
 * Page side of the Chromium hashing benchmark (bundled by suites/browser-hashing.ts). Runs the
 * engine's own pieces exactly as the transfer engine does: the hash worker pool (workers/hash) fed by
 * the engine's one hashing loop (workers/engine/chunk-digests.ts), over a Blob, so each worker reads its
 * slice through Blob.stream() like it reads a picked File.
 */
import { hashChunksInBackground } from '../../../workers/engine/chunk-digests';
import { createHashPool, type HashWorkerLike } from '../../../workers/hash/hash-pool';
import { fillChunk } from './pattern';

export interface PageRunRequest {
  chunkSize: number;
  chunks: number;
  poolSize: number;
  /** Tasks kept in flight: the engine gives each worker two, so reading overlaps digesting. */
  concurrency: number;
  rounds: number;
}
export interface PageRunResult {
  times: number[];
  digests: string[];
  hardwareConcurrency: number;
  secureContext: boolean;
}

let blob: Blob | null = null;

function makeBlob(chunkSize: number, chunks: number): Blob {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < chunks; i++) {
    const part = new Uint8Array(chunkSize);
    fillChunk(part, i);
    parts.push(part);
  }
  return new Blob(parts);
}

async function run(request: PageRunRequest): Promise<PageRunResult> {
  blob ??= makeBlob(request.chunkSize, request.chunks);
  const pool = createHashPool(request.poolSize, () => new Worker('/hash.worker.js', { name: 'transfer-hash' }) as unknown as HashWorkerLike);
  try {
    const times: number[] = [];
    let digests: string[] = [];
    // One warm-up pass (worker start, JIT), not timed.
    const warm = hashChunksInBackground(blob.slice(0, request.chunkSize * request.poolSize * 2), request.chunkSize, {
      hashChunk: pool.hashChunk,
      concurrency: request.concurrency,
      signal: new AbortController().signal,
      onProgress: () => undefined,
    });
    await warm.all();
    for (let round = 0; round < request.rounds; round++) {
      const start = performance.now();
      digests = await hashChunksInBackground(blob, request.chunkSize, {
        hashChunk: pool.hashChunk,
        concurrency: request.concurrency,
        signal: new AbortController().signal,
        onProgress: () => undefined,
      }).all();
      times.push(performance.now() - start);
    }
    return { times, digests, hardwareConcurrency: navigator.hardwareConcurrency, secureContext: globalThis.isSecureContext };
  } finally {
    pool.terminate();
  }
}

(globalThis as unknown as { runHashBench: typeof run }).runHashBench = run;
