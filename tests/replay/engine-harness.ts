/**
 * Starting the real engine under Node and waiting for it to finish: shared by the replay CLI, the
 * integration tests and the benchmarks.
 */
import type { TransferItemView, TransferSnapshot } from '../../common/transfer/engine-api';
import { createEngine, type Engine, type EngineDeps } from '../../workers/engine/engine';
import type { TransferDb } from '../../workers/queue/db';
import { createNodeHashPool } from '../../workers/node/hash-pool';
import { createCookieFetch, engineConfigFor, openFileSource, openNodeTransferDb, type CookieFetch } from './node-runtime';
import { createNodeChunkTransport } from '../../workers/node/chunk-transport';

export interface NodeEngine {
  engine: Engine;
  db: TransferDb;
  jar: CookieFetch;
  close(): Promise<void>;
}

/**
 * Engine dependencies, plus ones a newer engine may take (they are passed through untouched; an
 * engine that does not know a key ignores it).
 */
export type NodeEngineDeps = Partial<EngineDeps> & Record<string, unknown>;

/**
 * The real engine on a fresh in-memory queue, talking to `serverUrl` with `jar`'s cookie, with the
 * Node counterparts of the browser's parts: a worker_threads hash pool and an http chunk transport
 * (both read disk-file chunks straight from the file). `deps` overrides or adds engine dependencies
 * (timeouts, concurrency, sleep, a fetch-based transport...).
 */
export function createNodeEngine(serverUrl: string, jar: CookieFetch = createCookieFetch(), deps: NodeEngineDeps = {}): NodeEngine {
  const db = openNodeTransferDb(`transfer-engine-${Math.random().toString(36).slice(2)}`);
  const hashPool = createNodeHashPool();
  const engine = createEngine({
    db,
    fetch: jar.fetch,
    config: engineConfigFor(serverUrl),
    requestPersistence: () => undefined,
    notifyIntervalMs: 50,
    hashChunk: hashPool.hashChunk,
    hashConcurrency: hashPool.size,
    transport: createNodeChunkTransport(jar),
    ...deps,
  } as EngineDeps);
  return {
    engine,
    db,
    jar,
    async close() {
      await engine.dispose();
      hashPool.terminate();
      db.close();
    },
  };
}

/** States in which an item will not move again without a command. */
export const SETTLED_STATES = new Set(['done', 'failed', 'held', 'cancelled', 'paused']);

export function isSettled(item: TransferItemView): boolean {
  return SETTLED_STATES.has(item.state);
}

export interface WaitOptions {
  /** Gives up (rejects) after this long. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Only these items (default: all). */
  ids?: readonly string[];
  /** Called with every polled snapshot (progress output, cutting the server at 50 %...). */
  onSnapshot?: (snapshot: TransferSnapshot) => void | Promise<void>;
  pollMs?: number;
}

/** Polls until every (selected) item is settled; returns the last snapshot. */
export async function waitUntilSettled(engine: Engine, options: WaitOptions): Promise<TransferSnapshot> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? 50;
  for (;;) {
    options.signal?.throwIfAborted();
    const snapshot = await engine.getSnapshot();
    await options.onSnapshot?.(snapshot);
    const items = options.ids ? snapshot.items.filter((i) => options.ids!.includes(i.id)) : snapshot.items;
    if (items.every(isSettled)) return snapshot;
    if (Date.now() > deadline) {
      const states = items.map((i) => `${i.name}:${i.state}(${i.bytesDone}/${i.size})${i.lastError ? ` ${i.lastError}` : ''}`).join(', ');
      throw new Error(`engine did not settle within ${options.timeoutMs} ms: ${states}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * One upload of a disk file into the root of 个人文件 by a fresh engine (closed afterwards): the item
 * as it settled and its queue record.
 */
export async function uploadOnce(serverUrl: string, jar: CookieFetch, file: string, name: string, deps: NodeEngineDeps = {}, timeoutMs = 120_000) {
  const { engine, db, close } = createNodeEngine(serverUrl, jar, deps);
  try {
    const [id] = await engine.enqueueUploads([await openFileSource(file, name)], { parentId: null, category: 1 });
    const s = await waitUntilSettled(engine, { ids: [id!], timeoutMs });
    const item = s.items.find((i) => i.id === id)!;
    return { item, record: await db.uploads.get(id!) };
  } finally {
    await close();
  }
}
