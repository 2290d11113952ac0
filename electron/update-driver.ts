/**
 * Runs the update flow (update-flow.ts decides) against the server — without Electron, so it is
 * tested under Node against the real server; updater.ts gives it Electron's dialogs, `net.fetch`,
 * the shell and electron-updater.
 *
 * The release comes from `GET /api/clientVersion/get?clientType=3|4`. When it names an installer (the
 * tenant's admin uploaded one in 系统配置 → 客户端版本): "checking" asks the server for the installer's
 * first byte, "downloading" fetches it into `downloadDir` with progress and checks its size and content
 * fingerprint (installer-download.ts), "installing" hands the file to `install`. A release without an
 * installer but with `updateUrl` (DESKTOP_RELEASE_DIR) goes through `feed` (electron-updater's generic
 * provider), whose events come back through `dispatch`.
 */
import path from 'node:path';
import { API } from '../common/api/paths';
import { CLIENT_TYPE, clientHeaders, type NetworkEnv } from '../common/api/client-env';
import type { ClientVersion } from '../common/api/types';
import { downloadInstaller, probeInstaller, safeInstallerName, type FetchLike } from './installer-download';
import { initialUpdateState, updateFlow, type UpdateEffect, type UpdateEvent, type UpdateState } from './update-flow';

/** What the person answered a dialog: accept / decline; 'dismissed' for a notice closed. */
export type DialogAnswer = 'accept' | 'decline' | 'dismissed';

/** electron-updater as the driver uses it (its events reach the driver through `dispatch`). */
export interface UpdateFeed {
  setUrl(url: string): void;
  check(): Promise<unknown>;
  download(): Promise<unknown>;
  install(): void;
}

export interface UpdateDriverDeps {
  appUrl: string;
  networkEnv: NetworkEnv;
  /** The running app's version. */
  currentVersion: string;
  fetch: FetchLike;
  /** Shows the state's dialog and resolves with the answer; null for states with no dialog (downloading). */
  show(state: UpdateState): Promise<DialogAnswer | null>;
  /** Where installers are kept (a folder per version inside it). */
  downloadDir: string;
  /** Hands the downloaded installer to the operating system (installer-launch.ts). */
  install(file: string): Promise<void>;
  feed?: UpdateFeed;
  /** Every state the flow enters (the window's progress bar, the tray). */
  onState?(state: UpdateState): void;
}

export interface UpdateDriver {
  /** At start: `manual` false; 检查更新 in the tray: true. */
  start(manual: boolean): void;
  dispatch(event: UpdateEvent): void;
  state(): UpdateState;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export function createUpdateDriver(deps: UpdateDriverDeps): UpdateDriver {
  let state: UpdateState = initialUpdateState();
  let downloaded: string | null = null;
  let download: AbortController | null = null;
  const headers = clientHeaders('desktop', deps.networkEnv);

  const dispatch = (event: UpdateEvent): void => {
    const next = updateFlow(state, event, deps.currentVersion);
    state = next.state;
    deps.onState?.(state);
    for (const effect of next.effects) void run(effect);
  };

  const installerOf = () => ('release' in state ? state.release.installer : undefined);

  async function fetchVersion(): Promise<void> {
    try {
      const url = new URL(`${API.clientVersion}?clientType=${CLIENT_TYPE[deps.networkEnv]}`, deps.appUrl);
      const res = await deps.fetch(url.toString(), { headers });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const version = ((await res.json()) as { data: ClientVersion }).data;
      if (!version.installer && version.updateUrl) deps.feed?.setUrl(new URL(version.updateUrl, deps.appUrl).toString());
      dispatch({ type: 'versionFetched', version });
    } catch (error) {
      dispatch({ type: 'versionFailed', message: messageOf(error) });
    }
  }

  async function checkFeed(): Promise<void> {
    const installer = installerOf();
    if (!installer) {
      if (!deps.feed) return dispatch({ type: 'feedNotAvailable' });
      return void deps.feed.check().catch((error: unknown) => dispatch({ type: 'feedFailed', message: messageOf(error) }));
    }
    try {
      dispatch({ type: (await probeInstaller({ installer, appUrl: deps.appUrl, fetch: deps.fetch, headers })) ? 'feedAvailable' : 'feedNotAvailable' });
    } catch (error) {
      dispatch({ type: 'feedFailed', message: messageOf(error) });
    }
  }

  async function fetchInstaller(): Promise<void> {
    const installer = installerOf();
    if (!installer || !('release' in state)) {
      if (!deps.feed) return dispatch({ type: 'downloadFailed', message: '没有可下载的安装包' });
      return void deps.feed.download().catch((error: unknown) => dispatch({ type: 'downloadFailed', message: messageOf(error) }));
    }
    download?.abort();
    const controller = new AbortController();
    download = controller;
    // A folder per version: an older version's leftovers never pass for this one.
    const dir = path.join(deps.downloadDir, safeInstallerName(state.release.versionName));
    try {
      downloaded = await downloadInstaller({
        installer,
        appUrl: deps.appUrl,
        dir,
        fetch: deps.fetch,
        headers,
        signal: controller.signal,
        onProgress: (received, total) => dispatch({ type: 'progress', percent: total > 0 ? Math.floor((received / total) * 100) : 100 }),
      });
      dispatch({ type: 'downloaded' });
    } catch (error) {
      if (!controller.signal.aborted) dispatch({ type: 'downloadFailed', message: messageOf(error) });
    }
  }

  async function install(): Promise<void> {
    if (!installerOf()) return deps.feed?.install();
    if (!downloaded) return dispatch({ type: 'downloadFailed', message: '安装包不存在，请重新下载' });
    try {
      await deps.install(downloaded);
    } catch (error) {
      // Could not be started: back to the download's failure, whose 重试 fetches (or re-checks) it.
      state = { kind: 'downloading', release: (state as Extract<UpdateState, { release: unknown }>).release, percent: 100 };
      dispatch({ type: 'downloadFailed', message: `无法启动安装程序：${messageOf(error)}` });
    }
  }

  async function show(): Promise<void> {
    const shown = state;
    const answer = await deps.show(shown);
    // An answer for a dialog the flow has since left (a second start, a late event) changes nothing.
    if (answer && state === shown) dispatch({ type: answer });
  }

  async function run(effect: UpdateEffect): Promise<void> {
    switch (effect.type) {
      case 'fetchVersion':
        return fetchVersion();
      case 'checkFeed':
        return checkFeed();
      case 'download':
        return fetchInstaller();
      case 'install':
        return install();
      case 'show':
        return show();
    }
  }

  return { start: (manual) => dispatch({ type: 'start', manual }), dispatch, state: () => state };
}
