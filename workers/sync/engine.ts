/**
 * The sync engine: folder pairs, each with its journal and its own loop of passes. A pass runs at
 * start, shortly after the folder changes (a file watcher, debounced), at the admin's interval
 * (syncTime) as a safety net, and on demand. Transient failures (no server) retry with backoff;
 * a refusal (the cloud folder vanished, the local disk looks unmounted) waits for the next interval
 * with the reason shown; a lost session stops every pair until the host logs in again.
 *
 * Stopping is graceful: no new operation starts, the transfers in flight finish, the journals close.
 * Used by the headless command (cli.ts) and by Electron's utility process (host.ts).
 */
import path from 'node:path';
import type { RestoreOutcome, SyncPairConfig, SyncPairStatus, SyncPassSummary, SyncSettings, SyncStatus, SyncStopCode } from '../../common/sync/types';
import { EMPTY_SUMMARY } from '../../common/sync/types';
import { DEFAULT_DELETE_GUARD, type DeleteGuard } from './delete-gate';
import { confirmHeld, eventSummary, heldSummary, restoreEvent } from './deletion-events';
import type { LocalPlatform } from './names';
import { DeletesHeld, loadDecisions, newPairCache, PassRefused, runPass, type PairRuntime } from './pass';
import { PairLocked, type PairLock } from './pair-lock';
import { RemoteError, type Journal, type LocalFs, type RemoteApi } from './ports';
import { SyncLog } from './sync-log';

export interface Watcher {
  /** The folders the last scan found (a per-folder watcher follows them). */
  folders?(dirs: readonly string[]): void;
  close(): Promise<void>;
}

export interface SyncEngineDeps {
  remote: RemoteApi;
  /** The journal of a pair (SQLite file under the state folder). */
  openJournal(pair: SyncPairConfig): Journal;
  openFs(pair: SyncPairConfig): LocalFs;
  /** Starts watching a pair's folder; `changed` is called (often) when something under it changed. */
  watch?(pair: SyncPairConfig, changed: () => void): Watcher;
  platform: LocalPlatform;
  settings: SyncSettings;
  now?: () => number;
  transferConcurrency?: number;
  readConcurrency?: number;
  /** A pass ended (its summary): the headless command prints it. */
  onPass?(pair: SyncPairConfig, summary: SyncPassSummary): void;
  /** The status changed (throttled by the caller if it wants). */
  onStatus?(status: SyncStatus): void;
  /** When deletes wait for the person (default: DEFAULT_DELETE_GUARD); null: never. */
  deleteGuard?: DeleteGuard | null;
  /** Takes the folder's lock (one engine per folder) or throws PairLocked; absent: no lock. */
  lockPair?(pair: SyncPairConfig): PairLock;
}

/** After the folder changes, wait this long for more changes before a pass. */
export const WATCH_DEBOUNCE_MS = 1_500;
const BACKOFF_MIN_MS = 2_000;
const BACKOFF_MAX_MS = 5 * 60_000;

interface PairState {
  config: SyncPairConfig;
  rt: PairRuntime;
  watcher: Watcher | null;
  phase: SyncPairStatus['phase'];
  message: string | null;
  code: SyncStopCode | null;
  lock: PairLock | null;
  /** Passes, restores and confirmations of the pair, one at a time. */
  queue: Promise<unknown>;
  lastPassAt: number | null;
  lastSummary: SyncPassSummary | null;
  /** Resolves the loop's wait early (a change, a manual pass, stop). */
  wake: (() => void) | null;
  pending: boolean;
  failures: number;
  loop: Promise<void> | null;
}

export class SyncEngine {
  private readonly pairs = new Map<string, PairState>();
  private readonly now: () => number;
  private settings: SyncSettings;
  private stopping = false;
  private paused = false;
  /** Aborts everything at once (a second Ctrl-C); a graceful stop only sets `stopping`. */
  private readonly hardStop = new AbortController();

  constructor(private readonly deps: SyncEngineDeps) {
    this.now = deps.now ?? Date.now;
    this.settings = { ...deps.settings };
  }

  addPair(config: SyncPairConfig): void {
    if (this.pairs.has(config.id)) throw new Error(`pair ${config.id} exists`);
    const rt: PairRuntime = {
      config,
      fs: this.deps.openFs(config),
      remote: this.deps.remote,
      journal: this.deps.openJournal(config),
      log: new SyncLog(this.now),
      platform: this.deps.platform,
      now: this.now,
      transferConcurrency: this.deps.transferConcurrency ?? 3,
      readConcurrency: this.deps.readConcurrency ?? 4,
      checkPolicy: true,
      cache: newPairCache(),
      shouldStop: () => this.stopping || this.paused || config.paused,
      onScan: (scan) => this.pairs.get(config.id)?.watcher?.folders?.(scan.entries.filter((e) => e.isDir && !e.ignored).map((e) => e.path)),
      deleteGuard: this.deps.deleteGuard === undefined ? DEFAULT_DELETE_GUARD : this.deps.deleteGuard,
    };
    this.pairs.set(config.id, {
      config,
      rt,
      watcher: null,
      phase: config.paused ? 'paused' : 'idle',
      message: null,
      code: null,
      lock: null,
      queue: Promise.resolve(),
      lastPassAt: null,
      lastSummary: null,
      wake: null,
      pending: false,
      failures: 0,
      loop: null,
    });
    this.changed();
  }

  async removePair(id: string): Promise<void> {
    const state = this.pairs.get(id);
    if (!state) return;
    state.config.paused = true;
    state.wake?.();
    await state.loop;
    await state.queue;
    await state.watcher?.close();
    await state.rt.journal.close();
    state.lock?.release();
    this.pairs.delete(id);
    this.changed();
  }

  /**
   * 确认删除: lets the held deletes go that the person saw (`token` names them; null: whatever is
   * held, for the headless `--confirm-deletes`). Refused when another set waits now.
   */
  async confirmDeletes(pairId: string, token: string | null): Promise<void> {
    const state = this.stateOf(pairId);
    await this.serial(state, async () => {
      if (!(await confirmHeld(state.rt.journal, token))) throw new Error('待确认的删除已经变化，请查看新的列表后再确认');
    });
    this.poke(state, 0);
  }

  /** Restores one deletion event (the cloud entries from the recycle bin, the local files from the sync's trash), then syncs. */
  async restoreDeletion(pairId: string, eventId: string, signal: AbortSignal = this.hardStop.signal): Promise<RestoreOutcome> {
    const state = this.stateOf(pairId);
    const outcome = await this.serial(state, async () => {
      await loadDecisions(state.rt);
      const { events, ...result } = await restoreEvent({ fs: state.rt.fs, remote: state.rt.remote, journal: state.rt.journal, now: this.now }, eventId, signal);
      state.rt.cache.events = events;
      state.rt.cache.clean = null;
      state.rt.cache.listingToken = null;
      return result;
    });
    this.changed();
    this.poke(state, 0);
    return outcome;
  }

  /** The deletion events of a pair, newest first (read from its journal when no pass ran yet). */
  async deletionEvents(pairId: string): Promise<NonNullable<SyncPairStatus['deletions']>> {
    const state = this.stateOf(pairId);
    await loadDecisions(state.rt);
    return (state.rt.cache.events ?? []).map(eventSummary);
  }

  private stateOf(pairId: string): PairState {
    const state = this.pairs.get(pairId);
    if (!state) throw new Error('同步文件夹不存在');
    return state;
  }

  private serial<T>(state: PairState, run: () => Promise<T>): Promise<T> {
    const next = state.queue.then(run, run);
    state.queue = next.catch(() => undefined);
    return next;
  }

  /** Starts every pair's loop (and watcher). */
  start(): void {
    for (const state of this.pairs.values()) this.startPair(state);
  }

  private startPair(state: PairState): void {
    if (state.loop) return;
    if (this.deps.watch) {
      state.watcher = this.deps.watch(state.config, () => this.poke(state, WATCH_DEBOUNCE_MS));
    }
    state.loop = this.loop(state);
  }

  /** One pass of every pair now; resolves with the summed summary (the headless `--once`). */
  async runOnce(): Promise<SyncPassSummary> {
    const total = { ...EMPTY_SUMMARY };
    for (const state of this.pairs.values()) {
      const summary = await this.pass(state);
      // A pass that ended in an error still did what it did before it (its counts), plus the error.
      const counted = summary ?? state.rt.log.summary;
      for (const key of Object.keys(total) as Array<keyof SyncPassSummary>) total[key] += counted[key];
      if (!summary) total.failed += 1;
    }
    return total;
  }

  /** Asks for a pass of every pair soon. */
  syncNow(): void {
    for (const state of this.pairs.values()) this.poke(state, 0);
  }

  pause(): void {
    this.paused = true;
    this.changed();
  }

  resume(): void {
    this.paused = false;
    this.syncNow();
    this.changed();
  }

  setSettings(settings: Partial<SyncSettings>): void {
    this.settings = { ...this.settings, ...settings };
    this.changed();
  }

  /** The admin's syncTime, from a listing. */
  setIntervalMinutes(minutes: number): void {
    if (minutes > 0 && minutes * 60_000 !== this.settings.intervalMs) this.setSettings({ intervalMs: minutes * 60_000 });
  }

  /** Finishes the operations in flight, stops every loop and closes the journals. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const state of this.pairs.values()) state.wake?.();
    await Promise.all([...this.pairs.values()].map((s) => s.loop));
    for (const state of this.pairs.values()) {
      await state.queue;
      await state.watcher?.close();
      await state.rt.journal.close();
      state.lock?.release();
    }
  }

  /** Abandons the operations in flight (a second interrupt). */
  abort(): void {
    this.stopping = true;
    this.hardStop.abort(new Error('sync stopped'));
    for (const state of this.pairs.values()) state.wake?.();
  }

  status(): SyncStatus {
    return {
      paused: this.paused,
      settings: { ...this.settings },
      pairs: [...this.pairs.values()].map((s) => ({
        pair: { ...s.config },
        phase: this.paused || s.config.paused ? 'paused' : s.phase,
        message: s.message,
        code: s.code,
        heldDeletes: heldSummary(s.rt.cache.held ?? null),
        deletions: (s.rt.cache.events ?? []).map(eventSummary),
        lastPassAt: s.lastPassAt,
        lastSummary: s.lastSummary,
        lists: s.rt.log.lists(),
        upSpeed: 0,
        downSpeed: 0,
      })),
    };
  }

  private changed(): void {
    this.deps.onStatus?.(this.status());
  }

  private poke(state: PairState, delayMs: number): void {
    state.pending = true;
    if (delayMs <= 0) state.wake?.();
    else setTimeout(() => state.wake?.(), delayMs).unref?.();
  }

  private async loop(state: PairState): Promise<void> {
    while (!this.stopping) {
      let waitMs = this.settings.intervalMs;
      if (!this.paused && !state.config.paused) {
        state.pending = false;
        const summary = await this.pass(state);
        if (summary === null && state.phase === 'offline') {
          state.failures++;
          waitMs = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(state.failures - 1, 10));
        } else state.failures = 0;
        if (state.phase === 'error' && state.message?.includes('登录')) return; // session gone: the host logs in again
      }
      if (this.stopping) break;
      if (state.pending && !this.paused) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        timer.unref?.();
        state.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      state.wake = null;
    }
  }

  /** One pass; null when it failed (the phase, message and code say why). */
  private pass(state: PairState): Promise<SyncPassSummary | null> {
    return this.serial(state, () => this.passNow(state));
  }

  private async passNow(state: PairState): Promise<SyncPassSummary | null> {
    state.phase = 'syncing';
    state.message = null;
    state.code = null;
    this.changed();
    try {
      if (!state.lock && this.deps.lockPair) state.lock = this.deps.lockPair(state.config);
      const outcome = await runPass(state.rt, this.hardStop.signal);
      state.phase = 'idle';
      if (outcome.held && state.rt.cache.held) {
        state.code = 'deletesHeld';
        state.message = state.rt.cache.held.reason;
      }
      state.lastPassAt = this.now();
      state.lastSummary = outcome.summary;
      this.deps.onPass?.(state.config, outcome.summary);
      return outcome.summary;
    } catch (error) {
      // What the pass did before the error is shown and counted like any pass's (a pass that uploaded
      // 5 files and then lost the server says "uploaded 5", not 0).
      const partial = { ...state.rt.log.summary };
      if (Object.values(partial).some((n) => n > 0)) {
        state.lastSummary = partial;
        this.deps.onPass?.(state.config, partial);
      }
      if (error instanceof PairLocked) {
        state.phase = 'error';
        state.code = 'locked';
        state.message = error.message;
      } else if (error instanceof PassRefused) {
        state.phase = 'error';
        state.code = error instanceof DeletesHeld ? 'deletesHeld' : 'refused';
        state.message = error.message;
      } else if (error instanceof RemoteError && error.kind === 'unauthorized') {
        state.phase = 'error';
        state.code = 'unauthorized';
        state.message = '登录已过期，请重新登录后继续同步';
      } else if (error instanceof RemoteError && error.kind === 'transient') {
        state.phase = 'offline';
        state.code = 'unreachable';
        // What failed, without a promise: whoever shows it knows whether a retry comes (the headless --once makes none).
        state.message = error.message.replace(/，?稍后将自动重试$/, '');
      } else if (this.hardStop.signal.aborted) {
        state.phase = 'idle';
      } else {
        state.phase = 'error';
        state.code = 'error';
        state.message = `同步出错：${error instanceof Error ? error.message : String(error)}`;
      }
      return null;
    } finally {
      this.changed();
    }
  }
}

/** Where a pair's journal lives: one SQLite file per pair under the state folder. */
export function journalFileOf(stateDir: string, pair: SyncPairConfig): string {
  return path.join(stateDir, `pair-${pair.id.replace(/[^A-Za-z0-9_-]/g, '_')}.sqlite`);
}
