/**
 * Preload: exposes exactly one typed object, `window.desktop` (DesktopBridge), and only the channels
 * listed in DESKTOP_CHANNELS. The renderer never sees ipcRenderer itself.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { DESKTOP_CHANNELS, type DesktopBridge } from '../common/desktop/bridge';

const bridge: DesktopBridge = {
  isDesktop: true,
  getAppInfo: () => ipcRenderer.invoke(DESKTOP_CHANNELS.appInfo),
  notify: (notice) => ipcRenderer.invoke(DESKTOP_CHANNELS.notify, notice),
  onNotificationClick: (listener) => {
    // The renderer gets the url only, never the IPC event.
    const handler = (_event: unknown, url: unknown) => typeof url === 'string' && listener(url);
    ipcRenderer.on(DESKTOP_CHANNELS.notificationClick, handler);
    return () => void ipcRenderer.removeListener(DESKTOP_CHANNELS.notificationClick, handler);
  },
};

contextBridge.exposeInMainWorld('desktop', bridge);
