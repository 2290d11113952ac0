/**
 * Preload: exposes exactly one typed object, `window.desktop` (DesktopBridge), and only the channels
 * listed in DESKTOP_CHANNELS. The renderer never sees ipcRenderer itself.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { DESKTOP_CHANNELS, type DesktopBridge } from '../common/desktop/bridge';

const bridge: DesktopBridge = {
  isDesktop: true,
  getAppInfo: () => ipcRenderer.invoke(DESKTOP_CHANNELS.appInfo),
};

contextBridge.exposeInMainWorld('desktop', bridge);
