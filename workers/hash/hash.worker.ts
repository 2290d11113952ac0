/**
 * A hash worker: digests the byte ranges the engine's hash pool (hash-pool.ts) sends it, with
 * WebCrypto, or hash-wasm where crypto.subtle is missing (plain http on a LAN address). Only the
 * requested slice is read, into a buffer reused between tasks.
 */
import { createInThreadHashChunk, SourceReadError } from './sha256';
import type { HashResultMessage, HashTaskMessage } from './hash-pool';

const hashChunk = createInThreadHashChunk();
const never = new AbortController().signal;

/** How often a task in progress tells the pool how far its read got (the pool's stall watch). */
const READ_REPORT_MS = 1_000;

globalThis.addEventListener('message', (event: Event) => {
  const { taskId, source, start, end } = (event as MessageEvent<HashTaskMessage>).data;
  let reportedAt = 0; // the first read is reported at once: it tells the pool this worker reports
  const onRead = (bytesRead: number) => {
    if (Date.now() - reportedAt < READ_REPORT_MS) return;
    reportedAt = Date.now();
    globalThis.postMessage({ taskId, bytesRead } satisfies HashResultMessage);
  };
  hashChunk(source, start, end, never, onRead).then(
    (digest) => globalThis.postMessage({ taskId, digest } satisfies HashResultMessage),
    (error: unknown) =>
      globalThis.postMessage({
        taskId,
        error: error instanceof SourceReadError ? error.message : String(error),
      } satisfies HashResultMessage),
  );
});
