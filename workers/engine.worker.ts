/**
 * Worker entry of the transfer engine. The page creates it with
 *   new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module' })
 * wraps it with Comlink.wrap<EngineApi<File>>, calls `configure({ apiBase: '', platform, networkEnv })`
 * first, then subscribes with Comlink.proxy(listener). All bytes move here, off the UI thread; chunk
 * digests are computed by a pool of hash workers started from here (one per core, capped).
 */
import * as Comlink from 'comlink';
import { createEngine } from './engine/engine';
import { createHashPool, HASH_TASKS_PER_WORKER, hashPoolSize, type HashWorkerLike } from './hash/hash-pool';
import { openTransferDb } from './queue/db';
import { createTabEngine } from './tabs/tab-engine';

/**
 * Earlier versions kept the pieces of large downloads in OPFS ('downloads/'); downloads are the
 * browser's own now, so whatever is left there is removed (the queue's v3 upgrade drops their items).
 */
function removeFormerDownloadPieces(): void {
  const storage = globalThis.navigator?.storage as { getDirectory?: () => Promise<FileSystemDirectoryHandle> } | undefined;
  storage
    ?.getDirectory?.()
    .then((root) => root.removeEntry('downloads', { recursive: true }))
    .catch(() => undefined); // none there, or no OPFS (private mode)
}

// Every tab runs this worker, but only the one holding the origin's engine lock creates the engine
// (and its hash pool, whose workers start with the first chunk to hash); the others relay to it
// (workers/tabs/tab-engine.ts). The API exposed is the same either way, plus `watchRole(listener)`:
// whether this tab runs the transfers.
const engine = createTabEngine({
  createEngine: () => {
    const hashPool = createHashPool(
      hashPoolSize(globalThis.navigator?.hardwareConcurrency),
      () => new Worker(new URL('./hash/hash.worker.ts', import.meta.url), { type: 'module', name: 'transfer-hash' }) as unknown as HashWorkerLike,
    );
    removeFormerDownloadPieces();
    return createEngine({
      db: openTransferDb(),
      // Bound: a detached `fetch` throws "Illegal invocation" in browsers.
      fetch: (input, init) => globalThis.fetch(input, init),
      hashChunk: hashPool.hashChunk,
      hashConcurrency: hashPool.size * HASH_TASKS_PER_WORKER,
      // A file the probe did not find goes unhashed (the server's digests make its fingerprint): in
      // Chromium, hashing reads every chunk a second time (tests/bench/PROFILE-browser-upload.md).
      streamingDigests: 'server',
    });
  },
});

Comlink.expose(engine);
