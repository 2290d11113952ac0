/**
 * When finished uploads should make the file list reload. An upload of a thousand small files
 * finishes a file every few hundred milliseconds: reloading the list for each cost a request and a
 * table render per file (the page's main thread was the largest CPU user of a small-file upload,
 * tests/bench/PROFILE-browser-upload.md). So: at once when the queue has nothing left running (the
 * user is waiting to see the result), and at most every `intervalMs` while it still runs.
 */
import type { TransferItemView } from '../../../common/transfer/engine-api';

export const LIST_REFRESH_INTERVAL_MS = 2_000;

/** States in which an item will still move by itself (the rest wait for the user or are over). */
const MOVING = new Set<TransferItemView['state']>(['waiting', 'hashing', 'checking', 'uploading', 'retrying']);

export const queueIdle = (items: readonly TransferItemView[]): boolean => !items.some((i) => MOVING.has(i.state));

export interface ListRefresh {
  /** Uploads finished; `idle`: nothing is running or waiting any more. */
  finished(idle: boolean): void;
  dispose(): void;
}

export function createListRefresh(refresh: () => void, intervalMs = LIST_REFRESH_INTERVAL_MS, now: () => number = Date.now): ListRefresh {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = (): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    last = now();
    refresh();
  };
  return {
    finished(idle) {
      const wait = last + intervalMs - now();
      if (idle || wait <= 0) fire();
      else timer ??= setTimeout(fire, wait);
    },
    dispose() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}
