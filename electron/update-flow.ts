/**
 * The update decision flow of spec §1, as a pure state machine (tested under Node; electron/updater.ts
 * turns its effects into dialogs and electron-updater calls, and feeds the results back as events).
 *
 *  - the release the server offers comes from `GET /api/clientVersion/get?clientType=3|4`
 *    (3: internal build, 4: public build);
 *  - forced (isForce): a prompt that cannot be dismissed shows versionName and versionDesc; then the
 *    client downloads and installs, with no way around it (a failed download offers only 重试);
 *  - not forced: it asks whether to check (检查更新), then whether to download, then whether to
 *    install; every "no" ends the flow until the next start or a check by hand;
 *  - a failed check shows 检查更新失败 (at start too: the spec asks for the alert).
 */
import type { ClientInstaller, ClientVersion } from '../common/api/types';

export interface Release {
  versionName: string;
  versionDesc: string;
  forced: boolean;
  /** The installer the tenant's admin set (downloaded from our server); absent: electron-updater's feed. */
  installer?: ClientInstaller;
}

export type UpdateState =
  | { kind: 'idle' }
  | { kind: 'fetching'; manual: boolean }
  | { kind: 'askCheck'; release: Release }
  | { kind: 'checking'; release: Release }
  | { kind: 'askDownload'; release: Release }
  | { kind: 'forcedPrompt'; release: Release }
  | { kind: 'downloading'; release: Release; percent: number }
  | { kind: 'downloadFailed'; release: Release; message: string }
  | { kind: 'askInstall'; release: Release }
  | { kind: 'installing'; release: Release }
  | { kind: 'upToDate' }
  | { kind: 'failed'; message: string };

export type UpdateEvent =
  | { type: 'start'; manual: boolean }
  | { type: 'versionFetched'; version: ClientVersion }
  | { type: 'versionFailed'; message: string }
  | { type: 'accept' }
  | { type: 'decline' }
  | { type: 'feedAvailable' }
  | { type: 'feedNotAvailable' }
  | { type: 'feedFailed'; message: string }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded' }
  | { type: 'downloadFailed'; message: string }
  | { type: 'dismissed' };

export type UpdateEffect =
  | { type: 'fetchVersion' }
  | { type: 'checkFeed' }
  | { type: 'download' }
  | { type: 'install' }
  /** Show the state's dialog (updater.ts knows which dialog each state has). */
  | { type: 'show' };

export const UPDATE_TEXT = {
  checkFailed: '检查更新失败',
  upToDate: '当前已是最新版本',
  askCheck: (r: Release) => `发现新版本 ${r.versionName}，是否检查更新？`,
  askDownload: (r: Release) => `新版本 ${r.versionName} 可以下载，是否下载？`,
  askInstall: (r: Release) => `新版本 ${r.versionName} 已下载完成，是否立即安装？（安装时将关闭程序）`,
  forced: (r: Release) => `发现新版本 ${r.versionName}，必须更新后才能继续使用`,
  downloadFailed: '下载更新失败',
} as const;

/** Compares dotted versions numerically ('1.10.0' > '1.9.3'); non-numeric parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/i, '').split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

export function initialUpdateState(): UpdateState {
  return { kind: 'idle' };
}

const busy = (s: UpdateState) => s.kind !== 'idle' && s.kind !== 'upToDate' && s.kind !== 'failed';

/** The next state and what to do for it. `current` is the running app's version. */
export function updateFlow(state: UpdateState, event: UpdateEvent, current: string): { state: UpdateState; effects: UpdateEffect[] } {
  const to = (next: UpdateState, ...effects: UpdateEffect[]) => ({ state: next, effects });
  const stay = () => ({ state, effects: [] as UpdateEffect[] });

  switch (event.type) {
    case 'start':
      if (busy(state)) return stay(); // one flow at a time
      return to({ kind: 'fetching', manual: event.manual }, { type: 'fetchVersion' });

    case 'versionFetched': {
      if (state.kind !== 'fetching') return stay();
      const v = event.version;
      if (!v.versionName || compareVersions(v.versionName, current) <= 0) {
        return state.manual ? to({ kind: 'upToDate' }, { type: 'show' }) : to({ kind: 'idle' });
      }
      const release: Release = { versionName: v.versionName, versionDesc: v.versionDesc, forced: v.isForce, ...(v.installer ? { installer: v.installer } : {}) };
      if (release.forced) return to({ kind: 'forcedPrompt', release }, { type: 'show' });
      return to({ kind: 'askCheck', release }, { type: 'show' });
    }

    case 'versionFailed':
      if (state.kind !== 'fetching') return stay();
      return to({ kind: 'failed', message: event.message }, { type: 'show' });

    case 'accept':
      switch (state.kind) {
        case 'askCheck':
          return to({ kind: 'checking', release: state.release }, { type: 'checkFeed' });
        case 'askDownload':
          return to({ kind: 'downloading', release: state.release, percent: 0 }, { type: 'download' }, { type: 'show' });
        case 'forcedPrompt':
          // Forced: the feed is checked and the download starts in one go.
          return to({ kind: 'checking', release: state.release }, { type: 'checkFeed' });
        case 'downloadFailed':
          return to({ kind: 'downloading', release: state.release, percent: 0 }, { type: 'download' }, { type: 'show' });
        case 'askInstall':
          return to({ kind: 'installing', release: state.release }, { type: 'install' });
        default:
          return stay();
      }

    case 'decline':
    case 'dismissed':
      // A forced update cannot be put off: its prompt comes back.
      if (state.kind === 'forcedPrompt' || (state.kind === 'downloadFailed' && state.release.forced)) return to(state, { type: 'show' });
      if (state.kind === 'askCheck' || state.kind === 'askDownload' || state.kind === 'askInstall' || state.kind === 'downloadFailed') return to({ kind: 'idle' });
      if (state.kind === 'upToDate' || state.kind === 'failed') return to({ kind: 'idle' });
      return stay();

    case 'feedAvailable':
      if (state.kind !== 'checking') return stay();
      if (state.release.forced) return to({ kind: 'downloading', release: state.release, percent: 0 }, { type: 'download' }, { type: 'show' });
      return to({ kind: 'askDownload', release: state.release }, { type: 'show' });

    case 'feedNotAvailable':
      // The server announced a version its update feed does not hold: nothing can be installed.
      if (state.kind !== 'checking') return stay();
      return to({ kind: 'failed', message: '更新文件不存在' }, { type: 'show' });

    case 'feedFailed':
      if (state.kind !== 'checking') return stay();
      if (state.release.forced) return to({ kind: 'downloadFailed', release: state.release, message: event.message }, { type: 'show' });
      return to({ kind: 'failed', message: event.message }, { type: 'show' });

    case 'progress':
      if (state.kind !== 'downloading') return stay();
      return to({ ...state, percent: Math.max(state.percent, Math.min(100, event.percent)) });

    case 'downloaded':
      if (state.kind !== 'downloading') return stay();
      // Forced: installed at once; otherwise the user is asked.
      if (state.release.forced) return to({ kind: 'installing', release: state.release }, { type: 'install' });
      return to({ kind: 'askInstall', release: state.release }, { type: 'show' });

    case 'downloadFailed':
      if (state.kind !== 'downloading') return stay();
      return to({ kind: 'downloadFailed', release: state.release, message: event.message }, { type: 'show' });
  }
}
