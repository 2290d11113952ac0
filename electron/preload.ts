/**
 * Preload: exposes exactly one typed object, `window.desktop` (DesktopBridge), and only the channels
 * listed in DESKTOP_CHANNELS. The renderer never sees ipcRenderer itself.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { DESKTOP_CHANNELS, type DesktopBridge, type OpenPreviewMessage } from '../common/desktop/bridge';

const bridge: DesktopBridge = {
  isDesktop: true,
  getAppInfo: () => ipcRenderer.invoke(DESKTOP_CHANNELS.appInfo),
  onOpenPreview(listener) {
    const handler = (_e: IpcRendererEvent, msg: OpenPreviewMessage): void => listener(msg);
    ipcRenderer.on(DESKTOP_CHANNELS.openPreview, handler);
    return () => ipcRenderer.removeListener(DESKTOP_CHANNELS.openPreview, handler);
  },
};

contextBridge.exposeInMainWorld('desktop', bridge);
