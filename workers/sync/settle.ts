/**
 * A file that changed while the pass was taking it (between the scan and its upload, or in the middle
 * of the upload) is uploaded again within the pass once it settles: its size, time and id the same
 * for SETTLE_QUIET_MS. A file that keeps changing for SETTLE_MAX_MS, or changes again during each of
 * UPLOAD_ATTEMPTS uploads, goes to the fail list with why (issue 42: nothing dropped silently).
 */
import { matches } from './local-ops';
import type { LocalFs, LocalStat } from './ports';

/** How long a file must stay unchanged to count as settled. */
export const SETTLE_QUIET_MS = 1_000;
/** How often it is looked at meanwhile. */
export const SETTLE_POLL_MS = 250;
/** How long the pass waits for one file at most. */
export const SETTLE_MAX_MS = 15_000;
/** Uploads of one file in one pass (the first and the retries after it changed). */
export const UPLOAD_ATTEMPTS = 3;

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Waits until the file at `path` stops changing. Returns its settled stat; null when it is gone or no
 * longer a file; 'busy' when it was still changing after SETTLE_MAX_MS.
 */
export async function waitUntilSettled(fs: LocalFs, path: string, sleep: Sleep, signal: AbortSignal): Promise<LocalStat | null | 'busy'> {
  let last = await fs.stat(path);
  let quiet = 0;
  for (let waited = 0; waited < SETTLE_MAX_MS; waited += SETTLE_POLL_MS) {
    if (!last || last.isDir || last.isSymlink) return null;
    await sleep(SETTLE_POLL_MS, signal);
    const now = await fs.stat(path);
    if (now && !now.isDir && matches(now, last)) {
      quiet += SETTLE_POLL_MS;
      if (quiet >= SETTLE_QUIET_MS) return now;
    } else quiet = 0;
    last = now;
  }
  return 'busy';
}

/** The fail list's reasons (Chinese: the file, what happened, what to do). */
export const changedReasons = {
  stillWriting: (path: string) => `“${path}”一直在被写入，最新内容没有上传：请等它写完（或关闭正在编辑它的程序），下次同步会自动上传`,
  changedEachTime: (path: string, attempts: number) =>
    `“${path}”在上传过程中一再被修改（共试了 ${attempts} 次），最新内容没有上传：请等它写完（或关闭正在编辑它的程序），下次同步会自动上传`,
};
