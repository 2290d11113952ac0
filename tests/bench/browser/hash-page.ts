/**
 * Page side of the Chromium hashing benchmark (bundled by suites/browser-hashing.ts). Runs the
 * engine's own pieces exactly as the transfer engine does: the hash worker pool (workers/hash) fed by
 * the engine's one hashing loop (workers/engine/chunk-digests.ts), over the File picked in the page's
 * `<input type=file>`, so each worker reads its slice from disk through Blob.stream() as in an upload.
 * `readOnly` runs the same loop with workers that read each slice and digest nothing: the read's own
 * ceiling, which bounds what the pool can reach.
 */
import { hashChunksInBackground } from '../../../workers/engine/chunk-digests';
import { createHashPool, type HashWorkerLike } from '../../../workers/hash/hash-pool';

export interface PageRunRequest {
  chunkSize: number;
  poolSize: number;
  /** Tasks kept in flight: the engine gives each worker two, so reading overlaps digesting. */
  concurrency: number;
  rounds: number;
  readOnly: boolean;
}
export interface PageRunResult {
  times: number[];
  digests: string[];
  fileSize: number;
  hardwareConcurrency: number;
  secureContext: boolean;
}

function pickedFile(): File {
  const file = document.querySelector<HTMLInputElement>('input[type=file]')?.files?.[0];
  if (!file) throw new Error('no file picked in the bench page');
  return file;
}

async function run(request: PageRunRequest): Promise<PageRunResult> {
  const file = pickedFile();
  const script = request.readOnly ? '/read.worker.js' : '/hash.worker.js';
  const pool = createHashPool(request.poolSize, () => new Worker(script, { name: 'transfer-hash' }) as unknown as HashWorkerLike);
  const pass = (blob: Blob) =>
    hashChunksInBackground(blob, request.chunkSize, {
      hashChunk: pool.hashChunk,
      concurrency: request.concurrency,
      signal: new AbortController().signal,
      onProgress: () => undefined,
    }).all();
  try {
    const times: number[] = [];
    let digests: string[] = [];
    await pass(file.slice(0, request.chunkSize * request.poolSize * 2)); // warm-up (worker start, JIT), not timed
    for (let round = 0; round < request.rounds; round++) {
      const start = performance.now();
      digests = await pass(file);
      times.push(performance.now() - start);
    }
    return { times, digests, fileSize: file.size, hardwareConcurrency: navigator.hardwareConcurrency, secureContext: globalThis.isSecureContext };
  } finally {
    pool.terminate();
  }
}

(globalThis as unknown as { runHashBench: typeof run }).runHashBench = run;
