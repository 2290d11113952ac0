/**
 * Messages between Electron's main process and the sync engine's utility process
 * (workers/sync/host.ts): the main process owns the settings, the folder pairs and the session
 * cookie; the engine reports its status.
 */
import type { NetworkEnv } from '../api/client-env';
import type { SyncPairConfig, SyncPassSummary, SyncSettings, SyncStatus } from '../sync/types';

export type HostCommand =
  | { type: 'start'; serverUrl: string; networkEnv: NetworkEnv; cookie: string; stateDir: string; pairs: SyncPairConfig[]; settings: SyncSettings }
  /** The user logged in again (or out: ''). */
  | { type: 'cookie'; cookie: string }
  | { type: 'addPair'; pair: SyncPairConfig }
  | { type: 'removePair'; id: string }
  | { type: 'setPaused'; paused: boolean }
  | { type: 'syncNow' }
  | { type: 'settings'; settings: SyncSettings }
  /** Finish what is in flight and exit. */
  | { type: 'stop' };

export type HostEvent =
  | { type: 'status'; status: SyncStatus }
  | { type: 'pass'; pairId: string; summary: SyncPassSummary }
  | { type: 'stopped' }
  | { type: 'error'; message: string };
