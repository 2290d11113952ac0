/**
 * Starts the sync engine in an Electron utility process (dist-electron/sync-host.mjs, built from
 * workers/sync/host.ts) with the engine's flags, and wraps its port as a HostHandle.
 */
import { utilityProcess } from 'electron';
import path from 'node:path';
import type { HostCommand, HostEvent } from '../common/desktop/sync-host';
import { syncEngineFlags } from '../common/sync/engine-flags';
import type { HostHandle } from './desktop-sync';

export function startSyncHost(distDir: string): HostHandle {
  const child = utilityProcess.fork(path.join(distDir, 'sync-host.mjs'), [], {
    serviceName: '企业云盘同步',
    execArgv: syncEngineFlags(process.env),
    stdio: 'inherit',
  });
  const listeners: Array<(event: HostEvent) => void> = [];
  child.on('message', (message: HostEvent) => {
    for (const listener of listeners) listener(message);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    send: (command: HostCommand) => child.postMessage(command),
    onEvent: (listener) => listeners.push(listener),
    exited,
    kill: () => child.kill(),
  };
}
