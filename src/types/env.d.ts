import type { DesktopBridge } from '../../common/desktop/bridge';

declare global {
  interface Window {
    /** Present only inside the desktop shell (electron/preload.ts). */
    desktop?: DesktopBridge;
  }
  interface ImportMetaEnv {
    /** 'internal' (default) or 'public' network build. */
    readonly VITE_NETWORK_ENV?: string;
    /** ICP filing number of the public build's beian footer (BEIAN_NUMBER at build time). */
    readonly VITE_BEIAN_NUMBER?: string;
    /** The build's own id (a timestamp unless BUILD_ID is set): a new one per deployment. */
    readonly VITE_BUILD_ID?: string;
  }
}

export {};
