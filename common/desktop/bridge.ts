/**
 * The one object the Electron preload exposes to the web app as `window.desktop` (contextBridge).
 * Every IPC channel it may use is listed in DESKTOP_CHANNELS; the main process answers only those.
 */
export const DESKTOP_CHANNELS = {
  appInfo: 'desktop:app-info',
} as const;

export type DesktopChannel = (typeof DESKTOP_CHANNELS)[keyof typeof DESKTOP_CHANNELS];

export interface DesktopAppInfo {
  version: string;
  platform: string;
  networkEnv: 'internal' | 'public';
}

export interface DesktopBridge {
  readonly isDesktop: true;
  getAppInfo(): Promise<DesktopAppInfo>;
}
