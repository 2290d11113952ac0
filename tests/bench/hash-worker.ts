/**
 * worker_threads entry for the hashing benchmark: runs the engine's own chunk hashing
 * (workers/hash/sha256.ts, WebCrypto) off the main thread, the way the browser worker does.
 * Says "ready" once loaded, receives the shared test data once, and answers with the time of each round.
 */
import { parentPort } from 'node:worker_threads';
import { createSha256Hex, hashChunks } from '../../workers/hash/sha256';

interface HashRequest {
  data: SharedArrayBuffer;
  chunkSize: number;
  rounds: number;
}

parentPort!.once('message', async ({ data, chunkSize, rounds }: HashRequest) => {
  // A Blob over the bytes, so hashing goes through slice().arrayBuffer() exactly like a File does.
  const blob = new Blob([new Uint8Array(data).slice()]); // Blob parts cannot be shared memory
  const sha256 = createSha256Hex();
  const engineTimes: number[] = [];
  const digestOnlyTimes: number[] = [];
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
  }
  parentPort!.postMessage({ engineTimes, digestOnlyTimes, firstDigest: digests[0] });
});
parentPort!.postMessage('ready');
