/**
 * Messages between Electron's main process and the sync engine's utility process
 * (workers/sync/host.ts): the main process owns the settings, the folder pairs and the session
 * cookie; the engine reports its status.
 */
import type { NetworkEnv } from '../api/client-env';
import type { RestoreOutcome, SyncPairConfig, SyncPassSummary, SyncSettings, SyncStatus } from '../sync/types';

export type HostCommand =
  | { type: 'start'; serverUrl: string; networkEnv: NetworkEnv; cookie: string; stateDir: string; pairs: SyncPairConfig[]; settings: SyncSettings }
  /** The user logged in again (or out: ''). */
  | { type: 'cookie'; cookie: string }
  | { type: 'addPair'; pair: SyncPairConfig }
  | { type: 'removePair'; id: string }
  | { type: 'setPaused'; paused: boolean }
  | { type: 'syncNow' }
  | { type: 'settings'; settings: SyncSettings }
  /** 确认删除: the held deletes the person saw (`token`) may go; answered by a `done` of the same requestId. */
  | { type: 'confirmDeletes'; requestId: number; pairId: string; token: string }
  /** Restores one deletion event; answered by a `done` carrying the RestoreOutcome. */
  | { type: 'restoreDeletion'; requestId: number; pairId: string; eventId: string }
  /** Finish what is in flight and exit. */
  | { type: 'stop' };

export type HostEvent =
  | { type: 'status'; status: SyncStatus }
  | { type: 'pass'; pairId: string; summary: SyncPassSummary }
  | { type: 'stopped' }
  /** The answer to a command with a requestId: its result, or the Chinese reason it was refused. */
  | { type: 'done'; requestId: number; result?: RestoreOutcome; error?: string }
  | { type: 'error'; message: string };
