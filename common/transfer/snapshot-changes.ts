/**
 * Snapshots as changes: what crosses a thread or tab boundary is only the items that changed since the
 * receiver's last update, not every item every time. A folder of 1,000 small files changes state in
 * bursts while the engine notifies every PROMPT_NOTIFY_MS, and each full snapshot was a structured clone
 * of all 1,000 items, twice (to the page, and to the other tabs), plus 1,000 new objects on the page that
 * made every visible row render again (issue 43).
 *
 * The sender keeps the views it last sent (SnapshotDiffer) and sends the changed and new ones by id, the
 * ids gone, and the totals; the receiver (SnapshotAssembler) applies them to what it holds and hands out
 * a whole TransferSnapshot in which an unchanged item is the very object it had before (so memoized rows
 * skip it). Updates are numbered: an update that does not follow the last one applied (a receiver that
 * joined in the middle) is refused, and the receiver asks for a full one.
 */
import type { TransferItemView, TransferSnapshot } from './engine-api';

export interface SnapshotChanges {
  /** 1, 2, 3… per sender; a full update may come with any number and restarts the count from it. */
  seq: number;
  /** `items` is every item: whatever the receiver held before is dropped. */
  full: boolean;
  /** Items new or changed since update `seq - 1` (every item when `full`), in queue order. */
  items: TransferItemView[];
  /** Ids gone since update `seq - 1`. */
  removed: string[];
  totalBytes: number;
  doneBytes: number;
  speed: number;
}

/** Equal views: every field the same, `target` compared by its parts. */
export function sameView(a: TransferItemView, b: TransferItemView): boolean {
  const keysA = Object.keys(a) as Array<keyof TransferItemView>;
  if (keysA.length !== Object.keys(b).length) return false;
  for (const key of keysA) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (key === 'target' && a.target.parentId === b.target.parentId && a.target.category === b.target.category) continue;
    return false;
  }
  return true;
}

/** The sender's side: one per receiver (or per broadcast stream). */
export class SnapshotDiffer {
  private sent = new Map<string, TransferItemView>();
  private seq = 0;
  private totals = { totalBytes: 0, doneBytes: 0, speed: 0 };

  /**
   * The update that takes a receiver from the last one returned to `snapshot`; null when there is
   * nothing to tell (no item changed, came or went, the same totals), and the count does not move.
   */
  next(snapshot: TransferSnapshot): SnapshotChanges | null {
    const items: TransferItemView[] = [];
    const seen = new Map<string, TransferItemView>();
    for (const view of snapshot.items) {
      seen.set(view.id, view);
      const before = this.sent.get(view.id);
      if (!before || !sameView(before, view)) items.push(view);
    }
    const removed: string[] = [];
    for (const id of this.sent.keys()) if (!seen.has(id)) removed.push(id);
    const full = this.seq === 0;
    const totals = { totalBytes: snapshot.totalBytes, doneBytes: snapshot.doneBytes, speed: snapshot.speed };
    const sameTotals = totals.totalBytes === this.totals.totalBytes && totals.doneBytes === this.totals.doneBytes && totals.speed === this.totals.speed;
    if (!full && items.length === 0 && removed.length === 0 && sameTotals) return null;
    this.sent = seen;
    this.seq++;
    this.totals = totals;
    return { seq: this.seq, full, items, removed, ...totals };
  }

  /** Everything as of the last update returned, under its number (for a receiver that joins now). */
  fullUpdate(): SnapshotChanges | null {
    if (this.seq === 0) return null;
    return { seq: this.seq, full: true, items: [...this.sent.values()], removed: [], ...this.totals };
  }
}

/** The receiver's side. */
export class SnapshotAssembler {
  private items = new Map<string, TransferItemView>();
  private seq: number | null = null;

  /** Applies `changes`; the whole snapshot now, or null when they do not follow the last update applied. */
  apply(changes: SnapshotChanges): TransferSnapshot | null {
    if (changes.full) {
      this.items = new Map();
    } else if (this.seq === null || changes.seq !== this.seq + 1) {
      return null;
    }
    for (const id of changes.removed) this.items.delete(id);
    for (const view of changes.items) this.items.set(view.id, view);
    this.seq = changes.seq;
    return { items: [...this.items.values()], totalBytes: changes.totalBytes, doneBytes: changes.doneBytes, speed: changes.speed };
  }
}
