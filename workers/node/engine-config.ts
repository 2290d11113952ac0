import type { EngineConfig } from '../../common/transfer/engine-api';

/** The engine's server settings under Node: a desktop client of the internal build unless told otherwise. */
export function engineConfigFor(serverUrl: string, networkEnv: EngineConfig['networkEnv'] = 'internal'): EngineConfig {
  return { apiBase: serverUrl.replace(/\/+$/, ''), platform: 'desktop', networkEnv };
}

