/**
 * The transfer engine worker, created ONCE per page and shared by the panel and the upload handler.
 * The UI never moves bytes: it sends commands and reads snapshots over Comlink.
 *
 * Every tab starts a worker; only one per origin runs the transfers, the others relay to it
 * (workers/tabs/tab-engine.ts). The API is the same in both roles.
 */
import * as Comlink from 'comlink';
import type { EngineApi } from '../../../common/transfer/engine-api';
import type { SnapshotChanges } from '../../../common/transfer/snapshot-changes';
import { currentNetworkEnv, currentPlatform } from '../../lib/client-env';

/** Whether this tab's worker runs the engine ('leader') or relays to the tab that does. */
export type TabRole = 'leader' | 'follower';

/** What engine.worker.ts exposes (mirrors TabEngine in workers/tabs/tab-engine.ts, which src/ may not import). */
export interface EngineWorkerApi extends EngineApi<File> {
  /** Calls `listener` (wrapped with Comlink.proxy) now and whenever this tab's role changes. */
  watchRole(listener: (role: TabRole) => void): Promise<void>;
  /** Snapshots as changes (wrapped with Comlink.proxy): rebuild them with a SnapshotAssembler. */
  subscribeChanges(listener: (changes: SnapshotChanges) => void): Promise<number>;
}

export type Engine = Comlink.Remote<EngineWorkerApi>;

let engine: Engine | null = null;

export function getEngine(): Engine {
  if (!engine) {
    const worker = new Worker(new URL('../../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'transfer-engine' });
    engine = Comlink.wrap<EngineWorkerApi>(worker);
    // First call, so even resumed items carry the right headers.
    void engine.configure({ apiBase: '', platform: currentPlatform(), networkEnv: currentNetworkEnv() });
  }
  return engine;
}
