/**
 * The update flow's glue (the decisions are update-flow.ts's): the release the server offers, the
 * dialogs of spec §1, and electron-updater with the generic provider our server serves
 * (`ClientVersion.updateUrl`, the folder of the release's installers and latest*.yml).
 */
import { app, dialog, net, type BrowserWindow } from 'electron';
import electronUpdater from 'electron-updater';
import { API } from '../common/api/paths';
import { CLIENT_TYPE, clientHeaders, type NetworkEnv } from '../common/api/client-env';
import type { ClientVersion } from '../common/api/types';
import { initialUpdateState, updateFlow, UPDATE_TEXT, type UpdateEffect, type UpdateEvent, type UpdateState } from './update-flow';

const { autoUpdater } = electronUpdater;

export interface Updater {
  /** Runs the flow (at start: `manual` false; 检查更新 in the tray or the page: true). */
  start(manual: boolean): void;
}

export function createUpdater(options: { appUrl: string; networkEnv: NetworkEnv; window: () => BrowserWindow | null }): Updater {
  let state: UpdateState = initialUpdateState();
  autoUpdater.autoDownload = false;
  autoUpdater.autoInstallOnAppQuit = false;

  const dispatch = (event: UpdateEvent) => {
    const next = updateFlow(state, event, app.getVersion());
    state = next.state;
    for (const effect of next.effects) void run(effect);
    const win = options.window();
    if (win) win.setProgressBar(state.kind === 'downloading' ? state.percent / 100 : -1);
  };

  autoUpdater.on('update-available', () => dispatch({ type: 'feedAvailable' }));
  autoUpdater.on('update-not-available', () => dispatch({ type: 'feedNotAvailable' }));
  autoUpdater.on('download-progress', (p: { percent: number }) => dispatch({ type: 'progress', percent: p.percent }));
  autoUpdater.on('update-downloaded', () => dispatch({ type: 'downloaded' }));
  autoUpdater.on('error', (error: Error) => {
    if (state.kind === 'downloading') dispatch({ type: 'downloadFailed', message: error.message });
    else dispatch({ type: 'feedFailed', message: error.message });
  });

  async function fetchVersion(): Promise<void> {
    try {
      const url = new URL(`${API.clientVersion}?clientType=${CLIENT_TYPE[options.networkEnv]}`, options.appUrl);
      const res = await net.fetch(url.toString(), { headers: clientHeaders('desktop', options.networkEnv) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const version = ((await res.json()) as { data: ClientVersion }).data;
      if (version.updateUrl) autoUpdater.setFeedURL({ provider: 'generic', url: new URL(version.updateUrl, options.appUrl).toString() });
      dispatch({ type: 'versionFetched', version });
    } catch (error) {
      dispatch({ type: 'versionFailed', message: error instanceof Error ? error.message : String(error) });
    }
  }

  async function show(): Promise<void> {
    const win = options.window();
    const box = async (o: Electron.MessageBoxOptions): Promise<number> => (win ? dialog.showMessageBox(win, o) : dialog.showMessageBox(o)).then((r) => r.response);
    const title = '软件更新';
    switch (state.kind) {
      case 'askCheck': {
        const r = await box({ type: 'question', title, message: UPDATE_TEXT.askCheck(state.release), detail: state.release.versionDesc, buttons: ['检查更新', '以后再说'], defaultId: 0, cancelId: 1 });
        return dispatch({ type: r === 0 ? 'accept' : 'decline' });
      }
      case 'forcedPrompt':
        // One button, no cancel: closing the box counts as the button (the prompt cannot be dismissed).
        await box({ type: 'warning', title, message: UPDATE_TEXT.forced(state.release), detail: state.release.versionDesc, buttons: ['立即更新'], defaultId: 0, cancelId: 0, noLink: true });
        return dispatch({ type: 'accept' });
      case 'askDownload': {
        const r = await box({ type: 'question', title, message: UPDATE_TEXT.askDownload(state.release), detail: state.release.versionDesc, buttons: ['下载', '以后再说'], defaultId: 0, cancelId: 1 });
        return dispatch({ type: r === 0 ? 'accept' : 'decline' });
      }
      case 'downloadFailed': {
        const buttons = state.release.forced ? ['重试'] : ['重试', '取消'];
        const r = await box({ type: 'error', title, message: UPDATE_TEXT.downloadFailed, detail: state.message, buttons, defaultId: 0, cancelId: buttons.length - 1 });
        return dispatch({ type: r === 0 ? 'accept' : 'decline' });
      }
      case 'askInstall': {
        const r = await box({ type: 'question', title, message: UPDATE_TEXT.askInstall(state.release), buttons: ['立即安装', '稍后'], defaultId: 0, cancelId: 1 });
        return dispatch({ type: r === 0 ? 'accept' : 'decline' });
      }
      case 'upToDate':
        await box({ type: 'info', title, message: UPDATE_TEXT.upToDate, buttons: ['确定'] });
        return dispatch({ type: 'dismissed' });
      case 'failed':
        await box({ type: 'error', title, message: UPDATE_TEXT.checkFailed, detail: state.message, buttons: ['确定'] });
        return dispatch({ type: 'dismissed' });
      default:
        return undefined;
    }
  }

  async function run(effect: UpdateEffect): Promise<void> {
    switch (effect.type) {
      case 'fetchVersion':
        return fetchVersion();
      case 'checkFeed':
        return void autoUpdater.checkForUpdates().catch((error: Error) => dispatch({ type: 'feedFailed', message: error.message }));
      case 'download':
        return void autoUpdater.downloadUpdate().catch((error: Error) => dispatch({ type: 'downloadFailed', message: error.message }));
      case 'install':
        return autoUpdater.quitAndInstall();
      case 'show':
        return show();
    }
  }

  return { start: (manual) => dispatch({ type: 'start', manual }) };
}
