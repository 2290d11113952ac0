/** Shared set-up for the engine's unit tests: a fresh fake-indexeddb queue, the fake server, fast retries. */
import 'fake-indexeddb/auto';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { MIN_CHUNK_SIZE } from '../../../common/transfer/chunk-policy';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { createEngine, type Engine, type EngineDeps } from '../../../workers/engine/engine';
import type { OnlineSignal } from '../../../workers/engine/online';
import { openTransferDb } from '../../../workers/queue/db';
import type { FakeUploadServer } from './fake-upload-server';
import { chunkDigestHex } from '../../support/chunk-digest';

export const target = { parentId: 'folder-1', category: 1 };

const sha = (b: Uint8Array) => Buffer.from(chunkDigestHex(b), 'hex');

/** A file of `chunks` chunks of MIN_CHUNK_SIZE (last one half) and its fingerprint. */
export function testFile(name = 'report.bin', chunks = 4) {
  const bytes = new Uint8Array(randomBytes(MIN_CHUNK_SIZE * (chunks - 1) + MIN_CHUNK_SIZE / 2));
  const digests = Array.from({ length: chunks }, (_, i) => sha(bytes.subarray(i * MIN_CHUNK_SIZE, (i + 1) * MIN_CHUNK_SIZE)));
  const fingerprint = createHash('sha256').update(Buffer.concat(digests)).digest('hex');
  return { bytes, file: new File([bytes], name, { type: 'application/octet-stream' }), fingerprint };
}

let dbCounter = 0;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export function setupEngine(server: FakeUploadServer, overrides: Partial<EngineDeps> = {}, dbName = `engine-kit-${++dbCounter}-${Date.now()}`) {
  const db = openTransferDb(dbName);
  // No real backoff in tests: a sleep returns at once and moves the engine's clock on by its length,
  // so patience measured in time (UNREACHABLE_PATIENCE_MS) runs out as it would.
  let slept = 0;
  const engine = createEngine({
    db,
    fetch: server.fetch,
    config: { apiBase: '', platform: 'web', networkEnv: 'internal' },
    now: () => Date.now() + slept,
    sleep: async (ms) => {
      slept += ms;
    },
    notifyIntervalMs: 0,
    requestPersistence: () => undefined,
    // These tests are about the chunked protocol; batches of small files have their own (engine-batch.test.ts).
    smallFileBatches: false,
    ...overrides,
  });
  let disposed = false;
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await engine.dispose();
    db.close();
  };
  cleanups.push(dispose);
  return { db, engine, dbName, dispose };
}

export async function waitForItem(engine: Engine, id: string, predicate: (item: TransferItemView) => boolean, timeoutMs = 5_000): Promise<TransferItemView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const item = (await engine.getSnapshot()).items.find((i) => i.id === id);
    if (item && predicate(item)) return item;
    if (Date.now() > deadline) throw new Error(`timed out; last state: ${JSON.stringify(item && { ...item, target: undefined })}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** An online signal a test switches by hand. */
export function manualOnline(initial = true): OnlineSignal & { set(online: boolean): void } {
  let online = initial;
  const listeners = new Set<(online: boolean) => void>();
  return {
    isOnline: () => online,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      online = next;
      for (const l of [...listeners]) l(next);
    },
  };
}

export const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

/** Until aborted (also when it already was): like a request whose server never answers. */
export const hangUntilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    signal.addEventListener('abort', () => reject(signal.reason as Error));
  });
