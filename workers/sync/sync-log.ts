/**
 * The lists of spec §3 for one pair, as the UI and the headless command read them. A pass writes
 * its findings into a fresh set (failures, interceptions) and swaps it in when it ends, so the UI
 * never shows a half-built list; what is in flight (syncList) and what was done (successList) are
 * live.
 */
import type { SyncItemState, SyncListItem, SyncLists, SyncPassSummary } from '../../common/sync/types';
import { EMPTY_SUMMARY } from '../../common/sync/types';

/** How many finished items the success list keeps. */
export const SUCCESS_LIST_MAX = 500;

type PolicyList = 'interceptList' | 'sensitiveList' | 'secretList' | 'skippedList';

export class SyncLog {
  private active = new Map<string, SyncListItem>();
  private success: SyncListItem[] = [];
  private shown = { failList: [] as SyncListItem[], interceptList: [] as SyncListItem[], sensitiveList: [] as SyncListItem[], secretList: [] as SyncListItem[], skippedList: [] as SyncListItem[] };
  private staged = newStage();
  private fileCount = 0;
  summary: SyncPassSummary = { ...EMPTY_SUMMARY };

  constructor(private readonly now: () => number = Date.now) {}

  /** A pass starts: findings go to a fresh stage; counts start at zero. */
  beginPass(): void {
    this.staged = newStage();
    this.summary = { ...EMPTY_SUMMARY };
    // What waited for this pass is looked at again by it (and marked again if it still waits): an
    // entry left from before would otherwise stay "waiting" after the pass found nothing to do for it.
    for (const [path, item] of [...this.active]) if (item.state === 'unstable') this.active.delete(path);
  }

  /** The pass ended (or stopped): its findings become the lists shown. */
  endPass(): void {
    this.shown = {
      failList: [...this.staged.failList.values()],
      interceptList: [...this.staged.interceptList.values()],
      sensitiveList: [...this.staged.sensitiveList.values()],
      secretList: [...this.staged.secretList.values()],
      skippedList: [...this.staged.skippedList.values()],
    };
    this.summary.failed = this.staged.failList.size;
    this.summary.intercepted = this.staged.interceptList.size + this.staged.sensitiveList.size + this.staged.secretList.size;
    for (const path of [...this.active.keys()]) if (this.active.get(path)!.state !== 'unstable') this.active.delete(path);
  }

  /** The pass found nothing new: what the lists showed stays (the idle pass's short cut). */
  carryOver(): void {
    for (const name of ['failList', 'interceptList', 'sensitiveList', 'secretList', 'skippedList'] as const) {
      for (const item of this.shown[name]) this.staged[name].set(item.path, item);
    }
  }

  setFileCount(n: number): void {
    this.fileCount = n;
  }

  private item(path: string, action: string, state: SyncItemState, size = 0, reason: string | null = null): SyncListItem {
    return { path, action, state, size, bytesDone: 0, reason, at: this.now() };
  }

  begin(path: string, action: string, state: SyncItemState, size = 0): void {
    this.active.set(path, this.item(path, action, state, size));
  }

  progress(path: string, bytesDone: number): void {
    const item = this.active.get(path);
    if (item) item.bytesDone = bytesDone;
  }

  /** Still being written: shown in the sync list until a pass reads it whole. */
  unstable(path: string): void {
    this.active.set(path, this.item(path, '等待写入完成', 'unstable'));
  }

  succeeded(path: string, action: string, size = 0): void {
    this.active.delete(path);
    this.staged.failList.delete(path);
    this.success.unshift({ ...this.item(path, action, 'done', size), bytesDone: size });
    if (this.success.length > SUCCESS_LIST_MAX) this.success.length = SUCCESS_LIST_MAX;
  }

  failed(path: string, action: string, reason: string, size = 0): void {
    this.active.delete(path);
    this.staged.failList.set(path, this.item(path, action, 'failed', size, reason));
  }

  /**
   * Not done this pass because something changed under it (the cloud copy changed since the listing,
   * its folder moved): re-planned by the next pass, which `--once` runs at once. Shown as waiting.
   */
  retryLater(path: string, why = '云端有新的改动，下次同步时重新处理'): void {
    this.active.set(path, this.item(path, why, 'unstable'));
  }

  policy(list: PolicyList, path: string, reason: string, size = 0): void {
    this.active.delete(path);
    this.staged[list].set(path, this.item(path, list === 'skippedList' ? '已跳过' : '已拦截', 'failed', size, reason));
  }

  count(field: Exclude<keyof SyncPassSummary, 'failed' | 'intercepted'>, n = 1): void {
    this.summary[field] += n;
  }

  lists(): SyncLists {
    return {
      syncList: [...this.active.values()],
      failList: this.shown.failList,
      successList: this.success,
      interceptList: this.shown.interceptList,
      sensitiveList: this.shown.sensitiveList,
      secretList: this.shown.secretList,
      skippedList: this.shown.skippedList,
      allFilepathsLength: this.fileCount,
    };
  }
}

function newStage() {
  return {
    failList: new Map<string, SyncListItem>(),
    interceptList: new Map<string, SyncListItem>(),
    sensitiveList: new Map<string, SyncListItem>(),
    secretList: new Map<string, SyncListItem>(),
    skippedList: new Map<string, SyncListItem>(),
  };
}
