/**
 * The sync engine wired to the real world under Node: the server (HttpRemote over the cookie jar,
 * the worker_threads hash pool and the http chunk transport with the upload limit), the disk
 * (NodeFs), one SQLite journal per pair under the state folder, and a folder watcher per pair.
 * The headless command (cli.ts) and Electron's utility process (host.ts) both start it here.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { NetworkEnv } from '../../common/api/client-env';
import type { SyncPairConfig, SyncPassSummary, SyncSettings, SyncStatus } from '../../common/sync/types';
import type { CookieFetch } from '../node/cookie-fetch';
import { createNodeChunkTransport } from '../node/chunk-transport';
import { engineConfigFor } from '../node/engine-config';
import { createNodeHashPool } from '../node/hash-pool';
import { journalFileOf, SyncEngine } from './engine';
import { HttpRemote } from './http-remote';
import type { LocalPlatform } from './names';
import { watchFolder } from './folder-watcher';
import { NodeFs } from './node-fs';
import { SqliteJournal } from './sqlite-journal';
import { TokenBucket } from './throttle';
import type { DeleteGuard } from './delete-gate';
import { lockPair } from './pair-lock';

export interface NodeSyncOptions {
  serverUrl: string;
  networkEnv?: NetworkEnv;
  jar: CookieFetch;
  /** Where the journals live. */
  stateDir: string;
  pairs: SyncPairConfig[];
  settings: SyncSettings;
  /** Watch the folders (false: passes only at the interval or on demand). */
  watch: boolean;
  onPass?(pair: SyncPairConfig, summary: SyncPassSummary): void;
  onStatus?(status: SyncStatus): void;
  /** When deletes wait for the person (default DEFAULT_DELETE_GUARD). */
  deleteGuard?: DeleteGuard;
  /** Take each folder's lock before its first pass (default true; the headless command takes its own first). */
  lockPairs?: boolean;
}

export interface NodeSync {
  engine: SyncEngine;
  /** Bandwidth limits, bytes per second (0 = none). */
  setLimits(up: number, down: number): void;
  close(): Promise<void>;
}

function platformOf(): LocalPlatform {
  return process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux';
}

export function startNodeSync(options: NodeSyncOptions): NodeSync {
  fs.mkdirSync(options.stateDir, { recursive: true });
  const up = new TokenBucket(options.settings.uploadLimit);
  const down = new TokenBucket(options.settings.downloadLimit);
  const pool = createNodeHashPool(Math.max(1, Math.min(2, os.availableParallelism())));
  const remote = new HttpRemote({
    config: engineConfigFor(options.serverUrl, options.networkEnv ?? 'internal'),
    jar: options.jar,
    transport: createNodeChunkTransport(options.jar, { throttle: (bytes, signal) => up.take(bytes, signal) }),
    hashChunk: pool.hashChunk,
    hashConcurrency: pool.size,
    download: down,
    // Called with each listing, after the engine exists.
    onSyncTime: (minutes) => engine.setIntervalMinutes(minutes),
  });
  const engine: SyncEngine = new SyncEngine({
    remote,
    openJournal: (pair) => new SqliteJournal(journalFileOf(options.stateDir, pair)),
    openFs: (pair) => new NodeFs(pair.localDir, { hashChunk: pool.hashChunk, hashConcurrency: pool.size }),
    watch: options.watch ? (pair, changed) => watchFolder(pair.localDir, platformOf(), changed) : undefined,
    platform: platformOf(),
    settings: options.settings,
    onPass: options.onPass,
    onStatus: options.onStatus,
    deleteGuard: options.deleteGuard,
    lockPair: options.lockPairs === false ? undefined : (pair) => lockPair(pair.localDir, options.stateDir),
  });
  for (const pair of options.pairs) engine.addPair(pair);
  return {
    engine,
    setLimits(upRate, downRate) {
      up.setRate(upRate);
      down.setRate(downRate);
      engine.setSettings({ uploadLimit: upRate, downloadLimit: downRate });
    },
    async close() {
      await engine.stop();
      pool.terminate();
    },
  };
}
