/**
 * The one object the Electron preload exposes to the web app as `window.desktop` (contextBridge).
 * Every IPC channel it may use is listed in DESKTOP_CHANNELS; the main process answers only those,
 * and checks every argument (electron/ipc.ts). Events from the main process come on DESKTOP_EVENTS.
 */
import type { SyncMode, SyncPairConfig, SyncSettings, SyncStatus } from '../sync/types';

export const DESKTOP_CHANNELS = {
  appInfo: 'desktop:app-info',
  syncStatus: 'desktop:sync:status',
  syncChooseFolder: 'desktop:sync:choose-folder',
  syncAddPair: 'desktop:sync:add-pair',
  syncUpdatePair: 'desktop:sync:update-pair',
  syncRemovePair: 'desktop:sync:remove-pair',
  syncSetPaused: 'desktop:sync:set-paused',
  syncNow: 'desktop:sync:now',
  syncSetSettings: 'desktop:sync:set-settings',
  syncOpenFolder: 'desktop:sync:open-folder',
  checkForUpdates: 'desktop:update:check',
} as const;

/** Main → renderer notifications (the preload forwards them to the listener the page gave). */
export const DESKTOP_EVENTS = {
  syncStatus: 'desktop:event:sync-status',
} as const;

export type DesktopChannel = (typeof DESKTOP_CHANNELS)[keyof typeof DESKTOP_CHANNELS];

export interface DesktopAppInfo {
  version: string;
  platform: string;
  networkEnv: 'internal' | 'public';
}

/** A folder pair as the user sets it up (the id and state are the desktop's). */
export interface NewSyncPair {
  localDir: string;
  remotePath: string;
  mode: SyncMode;
  deleteRemote: boolean;
  ignore: string[];
}

export type SyncPairPatch = Partial<Pick<SyncPairConfig, 'mode' | 'deleteRemote' | 'ignore' | 'paused'>>;

export interface DesktopSyncApi {
  getStatus(): Promise<SyncStatus>;
  /** Called with every new status; returns the unsubscribe function. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** The system's folder picker; null when cancelled. */
  chooseFolder(): Promise<string | null>;
  addPair(pair: NewSyncPair): Promise<SyncPairConfig>;
  updatePair(id: string, patch: SyncPairPatch): Promise<void>;
  /** Stops syncing the pair (nothing is deleted on either side). */
  removePair(id: string): Promise<void>;
  /** Pauses or resumes everything. */
  setPaused(paused: boolean): Promise<void>;
  syncNow(): Promise<void>;
  setSettings(patch: Partial<SyncSettings>): Promise<void>;
  /** Shows the pair's local folder in the system's file manager. */
  openFolder(id: string): Promise<void>;
}

export interface DesktopBridge {
  readonly isDesktop: true;
  getAppInfo(): Promise<DesktopAppInfo>;
  /** The folder sync (workers/sync, in a utility process). */
  readonly sync: DesktopSyncApi;
  /** The update flow of spec §1, started by hand (it also runs at start). */
  checkForUpdates(): Promise<void>;
}
