import type { DesktopBridge } from '../../common/desktop/bridge';

declare global {
  interface Window {
    /** Present only inside the desktop shell (electron/preload.ts). */
    desktop?: DesktopBridge;
  }
  interface ImportMetaEnv {
    /** 'internal' (default) or 'public' network build. */
    readonly VITE_NETWORK_ENV?: string;
  }
}

export {};
