/**
 * The transfer engine worker, created ONCE per page and shared by the panel and the upload handler.
 * The UI never moves bytes: it sends commands and reads snapshots over Comlink.
 */
import * as Comlink from 'comlink';
import type { EngineApi } from '../../../common/transfer/engine-api';
import { currentNetworkEnv, currentPlatform } from '../../lib/client-env';

export type Engine = Comlink.Remote<EngineApi<File>>;

let engine: Engine | null = null;

export function getEngine(): Engine {
  if (!engine) {
    const worker = new Worker(new URL('../../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'transfer-engine' });
    engine = Comlink.wrap<EngineApi<File>>(worker);
    // First call, so even resumed items carry the right headers.
    void engine.configure({ apiBase: '', platform: currentPlatform(), networkEnv: currentNetworkEnv() });
  }
  return engine;
}
