/**
 * The one object the Electron preload exposes to the web app as `window.desktop` (contextBridge).
 * Every IPC channel it may use is listed in DESKTOP_CHANNELS; the main process answers only those.
 */
export const DESKTOP_CHANNELS = {
  appInfo: 'desktop:app-info',
  /** renderer → main: show a native notification (DesktopNotice). */
  notify: 'desktop:notify',
  /** main → renderer: the user clicked a notification; the app goes to its `url`. */
  notificationClick: 'desktop:notification-click',
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

export interface DesktopBridge {
  readonly isDesktop: true;
  getAppInfo(): Promise<DesktopAppInfo>;
  /** Shows a native notification (issue 16: new file messages). */
  notify(notice: DesktopNotice): Promise<void>;
  /** Calls `listener` with the notice's url when the user clicks one; returns an unsubscribe. */
  onNotificationClick(listener: (url: string) => void): () => void;
}
