/**
 * The allow-listed IPC of the preload bridge (common/desktop/bridge.ts): one handler per channel of
 * DESKTOP_CHANNELS, and nothing else is answered. Only the app's own page may call (the sender's
 * origin is checked against the server's); every argument is checked by the handlers' owners.
 */
import { DESKTOP_CHANNELS, isDesktopNotice, type DesktopAppInfo, type DesktopChannel, type DesktopNotice } from '../common/desktop/bridge';
import { isSameOrigin } from './config';
import type { DesktopSync } from './desktop-sync';

export interface IpcDeps {
  appUrl: string;
  appInfo(): DesktopAppInfo;
  sync: DesktopSync;
  chooseFolder(): Promise<string | null>;
  openPath(path: string): Promise<void>;
  checkForUpdates(): void;
  /** Shows a native notification (called only with a well-formed one). */
  notify(notice: DesktopNotice): void;
}

export type Handler = (...args: unknown[]) => unknown;

/** Every channel's handler; a channel missing here is never answered. */
export function desktopHandlers(deps: IpcDeps): Record<DesktopChannel, Handler> {
  return {
    [DESKTOP_CHANNELS.appInfo]: () => deps.appInfo(),
    [DESKTOP_CHANNELS.syncStatus]: () => deps.sync.getStatus(),
    [DESKTOP_CHANNELS.syncChooseFolder]: () => deps.chooseFolder(),
    [DESKTOP_CHANNELS.syncAddPair]: (pair) => deps.sync.addPair(pair),
    [DESKTOP_CHANNELS.syncUpdatePair]: (id, patch) => deps.sync.updatePair(id, patch),
    [DESKTOP_CHANNELS.syncRemovePair]: (id) => deps.sync.removePair(id),
    [DESKTOP_CHANNELS.syncSetPaused]: (paused) => deps.sync.setPaused(paused),
    [DESKTOP_CHANNELS.syncNow]: () => deps.sync.syncNow(),
    [DESKTOP_CHANNELS.syncSetSettings]: (patch) => deps.sync.setSettings(patch),
    [DESKTOP_CHANNELS.syncOpenFolder]: (id) => deps.openPath(deps.sync.localDirOf(id)),
    [DESKTOP_CHANNELS.syncConfirmDeletes]: (id, token) => deps.sync.confirmDeletes(id, token),
    [DESKTOP_CHANNELS.syncRestoreDeletion]: (id, eventId) => deps.sync.restoreDeletion(id, eventId),
    [DESKTOP_CHANNELS.checkForUpdates]: () => deps.checkForUpdates(),
    // Only short plain text and a path of the app itself; anything else is dropped silently.
    [DESKTOP_CHANNELS.notify]: (notice) => (isDesktopNotice(notice) ? deps.notify(notice) : undefined),
  };
}

/** Wraps a handler: callers from another origin (a page navigated elsewhere) are refused. */
export function guarded(appUrl: string, handler: Handler): (event: { senderFrame?: { url: string } | null }, ...args: unknown[]) => unknown {
  return (event, ...args) => {
    const url = event.senderFrame?.url ?? '';
    if (!isSameOrigin(url, appUrl)) throw new Error('desktop bridge: refused a call from another origin');
    return handler(...args);
  };
}
