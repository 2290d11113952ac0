/**
 * Worker entry of the transfer engine. The page creates it with
 *   new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module' })
 * wraps it with Comlink.wrap<EngineApi<File>>, calls `configure({ apiBase: '', platform, networkEnv })`
 * first, then subscribes with Comlink.proxy(listener). All bytes move here, off the UI thread.
 */
import * as Comlink from 'comlink';
import { createEngine } from './engine/engine';
import { openTransferDb } from './queue/db';

const engine = createEngine({
  db: openTransferDb(),
  // Bound: a detached `fetch` throws "Illegal invocation" in browsers.
  fetch: (input, init) => globalThis.fetch(input, init),
});

Comlink.expose(engine);
