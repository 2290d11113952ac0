/**
 * What the transfer list sums up over its items: bytes, speed, time left, the overall percentage and
 * the count of items under way or failed. A failed item has ended (with an error, until the user
 * retries, renames or removes it): it counts as finished, so the bar reaches its end and turns red
 * instead of waiting at 99 %, and the rail no longer counts it as running.
 */
import type { TransferItemView } from '../../../common/transfer/engine-api';

export const isBlocked = (item: TransferItemView): boolean => item.holdReason === 'blockedType';
export const isFinished = (item: TransferItemView): boolean => item.state === 'done' || item.state === 'cancelled';
/** Failed (not intercepted): finished with an error until the user retries, renames or removes it. */
export const isFailed = (item: TransferItemView): boolean => item.state === 'failed' && !isBlocked(item);
/** Still to come: neither finished, nor failed, nor intercepted. */
export const isUnderWay = (item: TransferItemView): boolean => !isFinished(item) && !isFailed(item) && !isBlocked(item);

export interface Overall {
  done: number;
  total: number;
  speed: number;
  eta: number | null;
  /** Failed items: counted as finished (with an error), so the bar ends instead of stopping at 99 %. */
  failed: number;
}

/** Bytes, speed and ETA over the items of one list (cancelled and intercepted items do not count). */
export function overall(items: TransferItemView[]): Overall {
  let done = 0;
  let total = 0;
  let speed = 0;
  let failed = 0;
  let failedBytes = 0;
  for (const item of items) {
    if (item.state === 'cancelled' || isBlocked(item)) continue;
    total += item.size;
    done += item.state === 'done' ? item.size : item.bytesDone;
    speed += item.speed;
    if (isFailed(item)) {
      failed++;
      failedBytes += item.size - item.bytesDone;
    }
  }
  const left = total - done - failedBytes;
  return { done: done + failedBytes, total, speed, eta: speed > 0 ? left / speed : null, failed };
}

/**
 * Overall percentage: 100 only when every item counted has ended — 已完成, or failed (finished with an
 * error, shown red) — so a merge still to come shows 99, and a failure never holds the bar there.
 */
export function overallPercent(items: TransferItemView[], sum: { done: number; total: number }): number {
  if (sum.total === 0) return items.some(isFailed) ? 100 : 0;
  const percent = Math.floor((sum.done / sum.total) * 100);
  return items.some(isUnderWay) ? Math.min(99, percent) : percent;
}

/** The bar's colour: red once nothing is under way and something failed. */
export function overallStatus(items: TransferItemView[], sum: Overall): 'exception' | 'normal' {
  return sum.failed > 0 && !items.some(isUnderWay) ? 'exception' : 'normal';
}
