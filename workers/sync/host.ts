/**
 * The sync engine's process on the desktop: Electron's main process starts this file as a utility
 * process (electron/sync-host-client.ts) with the engine's flags (common/sync/engine-flags.ts) and drives it with
 * the messages of common/desktop/sync-host.ts over `process.parentPort`. Nothing here knows Electron:
 * the port is typed structurally, so the file also runs under plain Node for tests.
 */
import type { HostCommand, HostEvent } from '../../common/desktop/sync-host';
import type { SyncStatus } from '../../common/sync/types';
import { createCookieFetch } from '../node/cookie-fetch';
import { startNodeSync, type NodeSync } from './node-runtime';

interface ParentPort {
  on(event: 'message', listener: (event: { data: HostCommand }) => void): void;
  postMessage(message: HostEvent): void;
}

/** Status messages at most this often (a pass of 100,000 files changes it constantly). */
const STATUS_EVERY_MS = 300;

export function runHost(port: ParentPort): void {
  let sync: NodeSync | null = null;
  const jar = createCookieFetch();
  let lastStatus = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  let latest: SyncStatus | null = null;
  const sendStatus = () => {
    pending = null;
    lastStatus = Date.now();
    if (latest) port.postMessage({ type: 'status', status: latest });
  };
  const onStatus = (status: SyncStatus) => {
    latest = status;
    if (pending) return;
    const wait = STATUS_EVERY_MS - (Date.now() - lastStatus);
    if (wait <= 0) sendStatus();
    else pending = setTimeout(sendStatus, wait);
  };

  port.on('message', ({ data: command }) => {
    void handle(command).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if ('requestId' in command) port.postMessage({ type: 'done', requestId: command.requestId, error: message });
      else port.postMessage({ type: 'error', message });
    });
  });

  async function handle(command: HostCommand): Promise<void> {
    switch (command.type) {
      case 'start':
        if (sync) return;
        jar.setCookie(command.cookie);
        sync = startNodeSync({
          serverUrl: command.serverUrl,
          networkEnv: command.networkEnv,
          jar,
          stateDir: command.stateDir,
          pairs: command.pairs,
          settings: command.settings,
          watch: true,
          onStatus,
          onPass: (pair, summary) => port.postMessage({ type: 'pass', pairId: pair.id, summary }),
        });
        sync.engine.start();
        onStatus(sync.engine.status());
        return;
      case 'cookie':
        jar.setCookie(command.cookie);
        if (command.cookie) sync?.engine.syncNow();
        return;
      case 'addPair':
        sync?.engine.addPair(command.pair);
        sync?.engine.start();
        return;
      case 'removePair':
        await sync?.engine.removePair(command.id);
        return;
      case 'setPaused':
        if (command.paused) sync?.engine.pause();
        else sync?.engine.resume();
        return;
      case 'syncNow':
        sync?.engine.syncNow();
        return;
      case 'settings':
        sync?.setLimits(command.settings.uploadLimit, command.settings.downloadLimit);
        sync?.engine.setSettings(command.settings);
        return;
      case 'confirmDeletes':
        if (!sync) throw new Error('同步尚未开始');
        await sync.engine.confirmDeletes(command.pairId, command.token);
        port.postMessage({ type: 'done', requestId: command.requestId });
        return;
      case 'restoreDeletion': {
        if (!sync) throw new Error('同步尚未开始');
        const result = await sync.engine.restoreDeletion(command.pairId, command.eventId);
        port.postMessage({ type: 'done', requestId: command.requestId, result });
        return;
      }
      case 'stop':
        await sync?.close();
        port.postMessage({ type: 'stopped' });
        return;
    }
  }
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (parentPort) runHost(parentPort);
