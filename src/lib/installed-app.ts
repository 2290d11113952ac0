/** Whether the app runs installed: the PWA in its own window, or the desktop shell — not a plain browser tab. */
import { inDesktopShell } from './desktop-client';

/** What the window knows about how it runs. */
export interface RunEnv {
  matchMedia?: (query: string) => { matches: boolean };
  /** iOS Safari's home-screen apps. */
  navigatorStandalone?: boolean;
  desktopShell: boolean;
}

const INSTALLED_MODES = ['standalone', 'fullscreen', 'minimal-ui', 'window-controls-overlay'];

export function runsInstalled(env: RunEnv): boolean {
  if (env.desktopShell || env.navigatorStandalone === true) return true;
  const mm = env.matchMedia;
  return !!mm && INSTALLED_MODES.some((mode) => mm(`(display-mode: ${mode})`).matches);
}

/** This window, now. */
export function runsInstalledNow(): boolean {
  if (typeof window === 'undefined') return false;
  return runsInstalled({
    matchMedia: typeof window.matchMedia === 'function' ? (q) => window.matchMedia(q) : undefined,
    navigatorStandalone: (navigator as Navigator & { standalone?: boolean }).standalone,
    desktopShell: inDesktopShell(),
  });
}
