/**
 * Electron main process: one window showing the server's web app, with the preload bridge. Kept
 * thin on purpose: decisions live in small modules (keys, config) that are tested under Node.
 */
import { app, BrowserWindow, ipcMain, Notification, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DESKTOP_CHANNELS, isDesktopNotice, type DesktopAppInfo } from '../common/desktop/bridge';
import { readDesktopConfig, isSameOrigin } from './config';
import { shouldBlockKey } from './keys';

const config = readDesktopConfig(process.env);
const here = path.dirname(fileURLToPath(import.meta.url));

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    webPreferences: {
      preload: path.join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    },
  });
  win.webContents.on('before-input-event', (event, input) => {
    if (shouldBlockKey(input)) event.preventDefault();
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (!isSameOrigin(url, config.appUrl)) void shell.openExternal(url);
    return { action: isSameOrigin(url, config.appUrl) ? 'allow' : 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isSameOrigin(url, config.appUrl)) event.preventDefault();
  });
  void win.loadURL(config.appUrl);
  return win;
}

ipcMain.handle(DESKTOP_CHANNELS.appInfo, (): DesktopAppInfo => ({
  version: app.getVersion(),
  platform: process.platform,
  networkEnv: config.networkEnv,
}));

// New file messages (issue 16): a native notification; a click brings the window up at the message.
ipcMain.handle(DESKTOP_CHANNELS.notify, (event, notice: unknown) => {
  if (!isDesktopNotice(notice) || !Notification.isSupported()) return;
  const win = BrowserWindow.fromWebContents(event.sender);
  const shown = new Notification({ title: notice.title, body: notice.body, silent: false });
  shown.on('click', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    win.webContents.send(DESKTOP_CHANNELS.notificationClick, notice.url);
  });
  shown.show();
});

void app.whenReady().then(() => {
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
