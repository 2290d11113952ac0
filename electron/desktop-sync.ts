/**
 * The desktop side of the sync: the pairs and settings (sync-config.ts), the engine in its utility
 * process (driven by messages, common/desktop/sync-host.ts), and the latest status for the page and
 * the tray. No Electron import here: the process and the dialogs come in as dependencies, so the
 * whole of it is tested under Node with fakes (tests/unit/electron).
 */
import type { NetworkEnv } from '../common/api/client-env';
import type { NewSyncPair, SyncPairPatch } from '../common/desktop/bridge';
import type { HostCommand, HostEvent } from '../common/desktop/sync-host';
import type { RestoreOutcome, SyncPairConfig, SyncSettings, SyncStatus } from '../common/sync/types';
import { checkNewPair, checkPairPatch, checkSettingsPatch, loadSyncConfig, newPairConfig, saveSyncConfig, type DesktopSyncConfig } from './sync-config';

export interface HostHandle {
  send(command: HostCommand): void;
  onEvent(listener: (event: HostEvent) => void): void;
  /** Resolves when the process is gone. */
  exited: Promise<void>;
  kill(): void;
}

export interface DesktopSyncDeps {
  configFile: string;
  stateDir: string;
  serverUrl: string;
  networkEnv: NetworkEnv;
  /** Starts the engine's utility process. */
  startHost(): HostHandle;
  /** The session cookie ('sid=…') of the window's session, '' when logged out. */
  cookie(): Promise<string>;
  isFolder(path: string): boolean;
  /** Start at login (app.setLoginItemSettings). */
  setStartAtLogin(on: boolean): void;
  onStatus(status: SyncStatus): void;
}

const emptyLists = { syncList: [], failList: [], successList: [], interceptList: [], sensitiveList: [], secretList: [], skippedList: [], allFilepathsLength: 0 };

/** How long a confirmation or a restore may take before the page is told it failed (a restore of many files is slow). */
const REQUEST_TIMEOUT_MS = 10 * 60_000;

export class DesktopSync {
  private config: DesktopSyncConfig;
  private host: HostHandle | null = null;
  private status: SyncStatus;
  private nextRequest = 1;
  private readonly requests = new Map<number, { resolve(result: RestoreOutcome | undefined): void; reject(error: Error): void }>();

  constructor(private readonly deps: DesktopSyncDeps) {
    this.config = loadSyncConfig(deps.configFile);
    this.status = this.placeholderStatus();
  }

  /** Before the engine reports, the page still sees the pairs. */
  private placeholderStatus(): SyncStatus {
    return {
      paused: this.config.paused,
      settings: { ...this.config.settings },
      pairs: this.config.pairs.map((pair) => ({ pair, phase: 'idle', message: null, lastPassAt: null, lastSummary: null, lists: emptyLists, upSpeed: 0, downSpeed: 0 })),
    };
  }

  private save(): void {
    saveSyncConfig(this.deps.configFile, this.config);
  }

  /** Starts the engine when there is something to sync and someone logged in. */
  async start(): Promise<void> {
    if (this.host || this.config.pairs.length === 0) return;
    const cookie = await this.deps.cookie();
    const host = this.deps.startHost();
    this.host = host;
    host.onEvent((event) => {
      if (event.type === 'status') {
        this.status = event.status;
        this.deps.onStatus(this.status);
      } else if (event.type === 'done') {
        const request = this.requests.get(event.requestId);
        this.requests.delete(event.requestId);
        if (event.error !== undefined) request?.reject(new Error(event.error));
        else request?.resolve(event.result);
      }
    });
    void host.exited.then(() => {
      if (this.host === host) this.host = null;
      for (const request of this.requests.values()) request.reject(new Error('同步程序已退出，请稍后重试'));
      this.requests.clear();
    });
    host.send({
      type: 'start',
      serverUrl: this.deps.serverUrl,
      networkEnv: this.deps.networkEnv,
      cookie,
      stateDir: this.deps.stateDir,
      pairs: [...this.config.pairs],
      settings: this.config.settings,
    });
    if (this.config.paused) host.send({ type: 'setPaused', paused: true });
  }

  /** The window's session changed (login, logout): the engine follows. */
  async cookieChanged(): Promise<void> {
    this.host?.send({ type: 'cookie', cookie: await this.deps.cookie() });
  }

  getStatus(): SyncStatus {
    return this.status;
  }

  async addPair(input: unknown): Promise<SyncPairConfig> {
    const pair = newPairConfig(checkNewPair(input, this.config.pairs, this.deps.isFolder) as NewSyncPair);
    this.config.pairs.push(pair);
    this.save();
    this.status = { ...this.status, pairs: [...this.status.pairs, { pair, phase: 'idle', message: null, lastPassAt: null, lastSummary: null, lists: emptyLists, upSpeed: 0, downSpeed: 0 }] };
    this.deps.onStatus(this.status);
    if (this.host) this.host.send({ type: 'addPair', pair });
    else await this.start();
    return pair;
  }

  async updatePair(id: unknown, patch: unknown): Promise<void> {
    const pair = this.pairOf(id);
    const checked: SyncPairPatch = checkPairPatch(patch);
    // The engine takes a changed pair as a new one (its journal is kept: the id is the same).
    Object.assign(pair, checked);
    this.save();
    this.host?.send({ type: 'removePair', id: pair.id });
    this.host?.send({ type: 'addPair', pair });
  }

  async removePair(id: unknown): Promise<void> {
    const pair = this.pairOf(id);
    this.config.pairs = this.config.pairs.filter((p) => p.id !== pair.id);
    this.save();
    this.host?.send({ type: 'removePair', id: pair.id });
    this.status = { ...this.status, pairs: this.status.pairs.filter((p) => p.pair.id !== pair.id) };
    this.deps.onStatus(this.status);
  }

  setPaused(paused: unknown): void {
    this.config.paused = paused === true;
    this.save();
    this.host?.send({ type: 'setPaused', paused: this.config.paused });
    this.status = { ...this.status, paused: this.config.paused };
    this.deps.onStatus(this.status);
  }

  syncNow(): void {
    this.host?.send({ type: 'syncNow' });
  }

  setSettings(patch: unknown): void {
    const checked: Partial<SyncSettings> = checkSettingsPatch(patch);
    this.config.settings = { ...this.config.settings, ...checked };
    this.save();
    if (checked.startAtLogin !== undefined) this.deps.setStartAtLogin(checked.startAtLogin);
    this.host?.send({ type: 'settings', settings: this.config.settings });
    this.status = { ...this.status, settings: { ...this.config.settings } };
    this.deps.onStatus(this.status);
  }

  /** 确认删除 of the list the page showed (its token). */
  async confirmDeletes(id: unknown, token: unknown): Promise<void> {
    const pair = this.pairOf(id);
    if (typeof token !== 'string' || !/^[0-9a-f]{1,64}$/.test(token)) throw new Error('待确认的删除不正确');
    await this.request({ type: 'confirmDeletes', pairId: pair.id, token });
  }

  /** Restores one deletion event of a pair; resolves with what came back. */
  async restoreDeletion(id: unknown, eventId: unknown): Promise<RestoreOutcome> {
    const pair = this.pairOf(id);
    if (typeof eventId !== 'string' || !/^[0-9a-z]{1,32}$/.test(eventId)) throw new Error('删除记录不正确');
    return (await this.request({ type: 'restoreDeletion', pairId: pair.id, eventId }))!;
  }

  private request(command: Omit<Extract<HostCommand, { type: 'confirmDeletes' }>, 'requestId'> | Omit<Extract<HostCommand, { type: 'restoreDeletion' }>, 'requestId'>): Promise<RestoreOutcome | undefined> {
    const host = this.host;
    if (!host) return Promise.reject(new Error('同步尚未开始'));
    const requestId = this.nextRequest++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.requests.delete(requestId);
        reject(new Error('同步程序没有响应，请稍后重试'));
      }, REQUEST_TIMEOUT_MS);
      timer.unref?.();
      const done = <T>(fn: (v: T) => void) => (v: T) => {
        clearTimeout(timer);
        fn(v);
      };
      this.requests.set(requestId, { resolve: done(resolve), reject: done(reject) });
      host.send({ ...command, requestId } as HostCommand);
    });
  }

  localDirOf(id: unknown): string {
    return this.pairOf(id).localDir;
  }

  /** Lets the engine finish what is in flight, then ends its process (app quit). */
  async stop(timeoutMs = 10_000): Promise<void> {
    const host = this.host;
    if (!host) return;
    host.send({ type: 'stop' });
    const timer = setTimeout(() => host.kill(), timeoutMs);
    await host.exited;
    clearTimeout(timer);
  }

  private pairOf(id: unknown): SyncPairConfig {
    const pair = this.config.pairs.find((p) => p.id === id);
    if (!pair) throw new Error('同步文件夹不存在');
    return pair;
  }
}
