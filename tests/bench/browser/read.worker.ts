/**
 * The hash worker's read without its digest (bench only): reads the requested slice exactly as
 * workers/hash/hash.worker.ts does (readRangeInto, one reused buffer per task) and answers its length.
 * The pool's MB/s with these workers is the ceiling of Chromium's Blob reads for the hash pool.
 */
import type { HashResultMessage, HashTaskMessage } from '../../../workers/hash/hash-pool';
import { readRangeInto } from '../../../workers/hash/sha256';

const spare: Uint8Array<ArrayBuffer>[] = [];

globalThis.addEventListener('message', (event: Event) => {
  const { taskId, source, start, end } = (event as MessageEvent<HashTaskMessage>).data;
  let buffer = spare.pop();
  if (!buffer || buffer.length < end - start) buffer = new Uint8Array(end - start);
  readRangeInto(source, start, end, buffer).then(
    (view) => {
      spare.push(new Uint8Array(view.buffer));
      globalThis.postMessage({ taskId, digest: String(view.length) } satisfies HashResultMessage);
    },
    (error: unknown) => globalThis.postMessage({ taskId, error: String(error) } satisfies HashResultMessage),
  );
});
