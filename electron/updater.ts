/**
 * The update flow's Electron wiring (the decisions are update-flow.ts's, the calls and the download
 * update-driver.ts's, both tested under Node): the dialogs of spec §1, `net.fetch`, the window's
 * progress bar, handing the installer to the OS (installer-launch.ts), and electron-updater's generic
 * provider for a release without an installer (`ClientVersion.updateUrl`).
 */
import { spawn } from 'node:child_process';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { app, dialog, net, shell, type BrowserWindow } from 'electron';
import electronUpdater from 'electron-updater';
import type { NetworkEnv } from '../common/api/client-env';
import { installerLaunch } from './installer-launch';
import { createUpdateDriver, type DialogAnswer } from './update-driver';
import { UPDATE_TEXT, type UpdateState } from './update-flow';

const { autoUpdater } = electronUpdater;

export interface Updater {
  /** Runs the flow (at start: `manual` false; 检查更新 in the tray or the page: true). */
  start(manual: boolean): void;
}

export function createUpdater(options: { appUrl: string; networkEnv: NetworkEnv; window: () => BrowserWindow | null }): Updater {
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = false;

  const driver = createUpdateDriver({
    appUrl: options.appUrl,
    networkEnv: options.networkEnv,
    currentVersion: app.getVersion(),
    fetch: (url, init) => net.fetch(url, init),
    show,
    downloadDir: path.join(app.getPath('userData'), 'updates'),
    install: launchInstaller,
    feed: {
      setUrl: (url) => autoUpdater.setFeedURL({ provider: 'generic', url }),
      check: () => autoUpdater.checkForUpdates(),
      download: () => autoUpdater.downloadUpdate(),
      install: () => autoUpdater.quitAndInstall(),
    },
    onState: (state) => {
      // The download's progress on the taskbar / dock icon.
      options.window()?.setProgressBar(state.kind === 'downloading' ? state.percent / 100 : -1);
    },
  });

  autoUpdater.on('update-available', () => driver.dispatch({ type: 'feedAvailable' }));
  autoUpdater.on('update-not-available', () => driver.dispatch({ type: 'feedNotAvailable' }));
  autoUpdater.on('download-progress', (p: { percent: number }) => driver.dispatch({ type: 'progress', percent: p.percent }));
  autoUpdater.on('update-downloaded', () => driver.dispatch({ type: 'downloaded' }));
  autoUpdater.on('error', (error: Error) => {
    if (driver.state().kind === 'downloading') driver.dispatch({ type: 'downloadFailed', message: error.message });
    else driver.dispatch({ type: 'feedFailed', message: error.message });
  });

  async function launchInstaller(file: string): Promise<void> {
    const plan = installerLaunch(process.platform, file);
    if (plan.kind === 'reveal') return shell.showItemInFolder(file);
    if (plan.kind === 'open') {
      const failure = await shell.openPath(file);
      if (failure) throw new Error(failure);
    } else {
      if (plan.makeExecutable) await chmod(file, 0o755);
      await new Promise<void>((resolve, reject) => {
        const child = spawn(plan.command, plan.args, { detached: true, stdio: 'ignore' });
        child.once('error', reject);
        child.once('spawn', () => {
          child.unref();
          resolve();
        });
      });
    }
    app.quit();
  }

  async function show(state: UpdateState): Promise<DialogAnswer | null> {
    const win = options.window();
    const box = async (o: Electron.MessageBoxOptions): Promise<number> => (win ? dialog.showMessageBox(win, o) : dialog.showMessageBox(o)).then((r) => r.response);
    const title = '软件更新';
    const yesNo = (r: number): DialogAnswer => (r === 0 ? 'accept' : 'decline');
    switch (state.kind) {
      case 'askCheck':
        return yesNo(await box({ type: 'question', title, message: UPDATE_TEXT.askCheck(state.release), detail: state.release.versionDesc, buttons: ['检查更新', '以后再说'], defaultId: 0, cancelId: 1 }));
      case 'forcedPrompt':
        // One button, no cancel: closing the box counts as the button (the prompt cannot be dismissed).
        await box({ type: 'warning', title, message: UPDATE_TEXT.forced(state.release), detail: state.release.versionDesc, buttons: ['立即更新'], defaultId: 0, cancelId: 0, noLink: true });
        return 'accept';
      case 'askDownload':
        return yesNo(await box({ type: 'question', title, message: UPDATE_TEXT.askDownload(state.release), detail: state.release.versionDesc, buttons: ['下载', '以后再说'], defaultId: 0, cancelId: 1 }));
      case 'downloadFailed': {
        const buttons = state.release.forced ? ['重试'] : ['重试', '取消'];
        return yesNo(await box({ type: 'error', title, message: UPDATE_TEXT.downloadFailed, detail: state.message, buttons, defaultId: 0, cancelId: buttons.length - 1 }));
      }
      case 'askInstall':
        return yesNo(await box({ type: 'question', title, message: UPDATE_TEXT.askInstall(state.release), buttons: ['立即安装', '稍后'], defaultId: 0, cancelId: 1 }));
      case 'upToDate':
        await box({ type: 'info', title, message: UPDATE_TEXT.upToDate, buttons: ['确定'] });
        return 'dismissed';
      case 'failed':
        await box({ type: 'error', title, message: UPDATE_TEXT.checkFailed, detail: state.message, buttons: ['确定'] });
        return 'dismissed';
      default:
        return null;
    }
  }

  return { start: (manual) => driver.start(manual) };
}
