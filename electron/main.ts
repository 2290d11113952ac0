/**
 * Electron main process: one window showing the server's web app with the preload bridge, the tray,
 * the folder sync (its engine in a utility process), the update flow, and the native messages that
 * open a file. Kept thin on purpose: every decision lives in a small module tested under Node (keys,
 * config, deep-link, update-flow, tray-menu, sync-config, desktop-sync, ipc).
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, session, shell, Tray } from 'electron';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP_CHANNELS, DESKTOP_EVENTS, type DesktopAppInfo, type DesktopChannel, type DesktopNotice } from '../common/desktop/bridge';
import type { SyncStatus } from '../common/sync/types';
import { isSameOrigin, readDesktopConfig } from './config';
import { DEEP_LINK_SCHEME, fileIdOfArgs, fileIdOfMessage, previewUrlFor } from './deep-link';
import { DesktopSync } from './desktop-sync';
import { desktopHandlers, guarded } from './ipc';
import { shouldBlockKey } from './keys';
import { startSyncHost } from './sync-host-client';
import { trayMenu, trayTooltip, type TrayAction } from './tray-menu';
import { createUpdater } from './updater';

// The two defaults are replaced at build time (electron/build.ts); the environment still wins.
const config = readDesktopConfig({ DRIVE_URL_DEFAULT: process.env.DRIVE_URL_DEFAULT, NETWORK_ENV_DEFAULT: process.env.NETWORK_ENV_DEFAULT, ...process.env });
const here = path.dirname(fileURLToPath(import.meta.url));
const production = app.isPackaged;
let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let quitting = false;

// One instance: a second start (or a clouddrive:// link opened by the OS) goes to the running one.
if (!app.requestSingleInstanceLock()) app.quit();
if (production) app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);

function openPreview(fileId: string): void {
  const target = previewUrlFor(config.appUrl, fileId);
  if (!win) return void createWindow(target);
  void win.loadURL(target);
  win.show();
  win.focus();
}

function createWindow(url = config.appUrl): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    show: true,
    webPreferences: {
      preload: path.join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  window.webContents.on('before-input-event', (event, input) => {
    if (shouldBlockKey(input, production)) event.preventDefault();
  });
  window.webContents.setWindowOpenHandler(({ url: target }) => {
    if (!isSameOrigin(target, config.appUrl)) void shell.openExternal(target);
    return { action: isSameOrigin(target, config.appUrl) ? 'allow' : 'deny' };
  });
  window.webContents.on('will-navigate', (event, target) => {
    if (!isSameOrigin(target, config.appUrl)) event.preventDefault();
  });
  // With folders syncing, closing the window keeps the app in the tray.
  window.on('close', (event) => {
    if (!quitting && tray && sync.getStatus().pairs.length > 0) {
      event.preventDefault();
      window.hide();
    }
  });
  window.on('closed', () => {
    if (win === window) win = null;
  });
  void window.loadURL(url);
  win = window;
  return window;
}

const sync = new DesktopSync({
  configFile: path.join(app.getPath('userData'), 'sync', 'config.json'),
  stateDir: path.join(app.getPath('userData'), 'sync', 'state'),
  serverUrl: config.appUrl,
  networkEnv: config.networkEnv,
  startHost: () => startSyncHost(here),
  cookie: async () => {
    const [sid] = await session.defaultSession.cookies.get({ url: config.appUrl, name: 'sid' });
    return sid ? `sid=${sid.value}` : '';
  },
  isFolder: (p) => fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() === true,
  setStartAtLogin: (on) => app.setLoginItemSettings({ openAtLogin: on }),
  onStatus: (status) => {
    win?.webContents.send(DESKTOP_EVENTS.syncStatus, status);
    refreshTray(status);
  },
});

// New file messages (issue 16): a native notification; a click brings the window up at the message.
function showNotice(notice: DesktopNotice): void {
  if (!Notification.isSupported()) return;
  const shown = new Notification({ title: notice.title, body: notice.body, silent: false });
  shown.on('click', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    win.webContents.send(DESKTOP_EVENTS.notificationClick, notice.url);
  });
  shown.show();
}

const updater = createUpdater({ appUrl: config.appUrl, networkEnv: config.networkEnv, window: () => win });

function runTrayAction(action: TrayAction): void {
  switch (action) {
    case 'open':
      if (!win) createWindow();
      win?.show();
      win?.focus();
      return;
    case 'pause':
      return sync.setPaused(true);
    case 'resume':
      return sync.setPaused(false);
    case 'syncNow':
      return sync.syncNow();
    case 'checkUpdates':
      return updater.start(true);
    case 'quit':
      quitting = true;
      app.quit();
  }
}

function refreshTray(status: SyncStatus | null): void {
  if (!tray) return;
  tray.setToolTip(trayTooltip(status));
  tray.setContextMenu(
    Menu.buildFromTemplate(
      trayMenu(status).map((item) =>
        item.separator ? { type: 'separator' as const } : { label: item.label, enabled: item.enabled ?? true, click: () => item.action && runTrayAction(item.action) },
      ),
    ),
  );
}

const handlers = desktopHandlers({
  appUrl: config.appUrl,
  appInfo: (): DesktopAppInfo => ({ version: app.getVersion(), platform: process.platform, networkEnv: config.networkEnv }),
  sync,
  chooseFolder: async () => {
    const options: Electron.OpenDialogOptions = { title: '选择要同步的文件夹', properties: ['openDirectory', 'createDirectory'] };
    const picked = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return picked.canceled ? null : (picked.filePaths[0] ?? null);
  },
  openPath: async (p) => {
    await shell.openPath(p);
  },
  checkForUpdates: () => updater.start(true),
  notify: showNotice,
});
for (const channel of Object.values(DESKTOP_CHANNELS) as DesktopChannel[]) ipcMain.handle(channel, guarded(config.appUrl, handlers[channel]));

app.on('second-instance', (_event, argv) => {
  const fileId = fileIdOfArgs(argv);
  if (fileId) return openPreview(fileId);
  runTrayAction('open');
});
// macOS hands clouddrive:// links over as open-url.
app.on('open-url', (event, url) => {
  event.preventDefault();
  const fileId = fileIdOfMessage(url);
  if (fileId) openPreview(fileId);
});

void app.whenReady().then(async () => {
  const fileId = fileIdOfArgs(process.argv);
  createWindow(fileId ? previewUrlFor(config.appUrl, fileId) : config.appUrl);
  tray = new Tray(nativeImage.createFromPath(path.join(here, 'tray.png')).resize({ width: 16, height: 16 }));
  tray.on('click', () => runTrayAction('open'));
  refreshTray(sync.getStatus());
  // The engine follows the window's login: a new session cookie goes to it.
  session.defaultSession.cookies.on('changed', (_event, cookie) => {
    if (cookie.name === 'sid') void sync.cookieChanged().then(() => sync.start());
  });
  await sync.start();
  updater.start(false);
  app.on('activate', () => runTrayAction('open'));
});

app.on('before-quit', (event) => {
  if (quitting === true && sync.getStatus().pairs.length === 0) return;
  // Let the engine finish the file in flight, then quit for real.
  event.preventDefault();
  quitting = true;
  void sync.stop().finally(() => app.exit(0));
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin' && !tray) app.quit();
});
