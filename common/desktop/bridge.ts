/**
 * The one object the Electron preload exposes to the web app as `window.desktop` (contextBridge).
 * Every IPC channel it may use is listed in DESKTOP_CHANNELS; the main process answers only those,
 * and checks every argument (electron/ipc.ts). Events from the main process come on DESKTOP_EVENTS.
 */
import type { RestoreOutcome, SyncMode, SyncPairConfig, SyncSettings, SyncStatus } from '../sync/types';

export const DESKTOP_CHANNELS = {
  appInfo: 'desktop:app-info',
  /** renderer → main: show a native notification (DesktopNotice; issue 16). */
  notify: 'desktop:notify',
  syncStatus: 'desktop:sync:status',
  syncChooseFolder: 'desktop:sync:choose-folder',
  syncAddPair: 'desktop:sync:add-pair',
  syncUpdatePair: 'desktop:sync:update-pair',
  syncRemovePair: 'desktop:sync:remove-pair',
  syncSetPaused: 'desktop:sync:set-paused',
  syncNow: 'desktop:sync:now',
  syncSetSettings: 'desktop:sync:set-settings',
  syncOpenFolder: 'desktop:sync:open-folder',
  syncConfirmDeletes: 'desktop:sync:confirm-deletes',
  syncRestoreDeletion: 'desktop:sync:restore-deletion',
  checkForUpdates: 'desktop:update:check',
} as const;

/** Main → renderer notifications (the preload forwards them to the listener the page gave). */
export const DESKTOP_EVENTS = {
  syncStatus: 'desktop:event:sync-status',
  /** The user clicked a native notification; the app goes to its `url`. */
  notificationClick: 'desktop:event:notification-click',
} as const;

export type DesktopChannel = (typeof DESKTOP_CHANNELS)[keyof typeof DESKTOP_CHANNELS];

export interface DesktopAppInfo {
  version: string;
  platform: string;
  networkEnv: 'internal' | 'public';
}

/** A native notification (new file messages). Plain text; `url` is a path of the app ('/main/...'). */
export interface DesktopNotice {
  title: string;
  body: string;
  url: string;
}

export const DESKTOP_NOTICE_LIMITS = { title: 100, body: 300, url: 2000 } as const;

/** The main process shows only well-formed notices: short plain text and a path of the app itself. */
export function isDesktopNotice(value: unknown): value is DesktopNotice {
  if (typeof value !== 'object' || value === null) return false;
  const n = value as Record<string, unknown>;
  return (
    typeof n.title === 'string' &&
    n.title.length <= DESKTOP_NOTICE_LIMITS.title &&
    typeof n.body === 'string' &&
    n.body.length <= DESKTOP_NOTICE_LIMITS.body &&
    typeof n.url === 'string' &&
    n.url.length <= DESKTOP_NOTICE_LIMITS.url &&
    n.url.startsWith('/main/') &&
    !n.url.startsWith('//')
  );
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
  /** 确认删除: the held deletes named by `token` (the list shown) may go; refused when another list waits now. */
  confirmDeletes(id: string, token: string): Promise<void>;
  /** Restores one deletion event of the pair (SyncPairStatus.deletions) in one action. */
  restoreDeletion(id: string, eventId: string): Promise<RestoreOutcome>;
}

export interface DesktopBridge {
  readonly isDesktop: true;
  getAppInfo(): Promise<DesktopAppInfo>;
  /** Shows a native notification (issue 16: new file messages). */
  notify(notice: DesktopNotice): Promise<void>;
  /** Calls `listener` with the notice's url when the user clicks one; returns an unsubscribe. */
  onNotificationClick(listener: (url: string) => void): () => void;
  /** The folder sync (workers/sync, in a utility process). */
  readonly sync: DesktopSyncApi;
  /** The update flow of spec §1, started by hand (it also runs at start). */
  checkForUpdates(): Promise<void>;
}
