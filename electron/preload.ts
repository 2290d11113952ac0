/**
 * Preload: exposes exactly one typed object, `window.desktop` (DesktopBridge), over the channels of
 * DESKTOP_CHANNELS and the events of DESKTOP_EVENTS. The renderer never sees ipcRenderer itself.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { DESKTOP_CHANNELS, DESKTOP_EVENTS, type DesktopBridge } from '../common/desktop/bridge';
import type { SyncStatus } from '../common/sync/types';

const bridge: DesktopBridge = {
  isDesktop: true,
  getAppInfo: () => ipcRenderer.invoke(DESKTOP_CHANNELS.appInfo),
  notify: (notice) => ipcRenderer.invoke(DESKTOP_CHANNELS.notify, notice),
  onNotificationClick: (listener) => {
    // The renderer gets the url only, never the IPC event.
    const forward = (_event: IpcRendererEvent, url: unknown) => typeof url === 'string' && listener(url);
    ipcRenderer.on(DESKTOP_EVENTS.notificationClick, forward);
    return () => void ipcRenderer.removeListener(DESKTOP_EVENTS.notificationClick, forward);
  },
  checkForUpdates: () => ipcRenderer.invoke(DESKTOP_CHANNELS.checkForUpdates),
  sync: {
    getStatus: () => ipcRenderer.invoke(DESKTOP_CHANNELS.syncStatus),
    onStatus(listener) {
      const forward = (_event: IpcRendererEvent, status: SyncStatus) => listener(status);
      ipcRenderer.on(DESKTOP_EVENTS.syncStatus, forward);
      return () => ipcRenderer.removeListener(DESKTOP_EVENTS.syncStatus, forward);
    },
    chooseFolder: () => ipcRenderer.invoke(DESKTOP_CHANNELS.syncChooseFolder),
    addPair: (pair) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncAddPair, pair),
    updatePair: (id, patch) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncUpdatePair, id, patch),
    removePair: (id) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncRemovePair, id),
    setPaused: (paused) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncSetPaused, paused),
    syncNow: () => ipcRenderer.invoke(DESKTOP_CHANNELS.syncNow),
    setSettings: (patch) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncSetSettings, patch),
    openFolder: (id) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncOpenFolder, id),
    confirmDeletes: (id, token) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncConfirmDeletes, id, token),
    restoreDeletion: (id, eventId) => ipcRenderer.invoke(DESKTOP_CHANNELS.syncRestoreDeletion, id, eventId),
  },
};

contextBridge.exposeInMainWorld('desktop', bridge);
