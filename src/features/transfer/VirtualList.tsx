import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useElementSize } from '../../lib/use-element-size';

/** Pixels rendered beyond the visible area, above and below, so fast scrolling shows no gaps. */
const OVERSCAN_PX = 400;

/** Until the list is measured (the observer reports after the first layout). */
const VIEWPORT_FALLBACK = { width: 0, height: 600 };

/** Index of the last row whose top is at or above `y` (offsets ascending, offsets[0] = 0). */
function rowAt(offsets: number[], y: number): number {
  let lo = 0;
  let hi = offsets.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((offsets[mid] as number) <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/**
 * A virtual scroller for rows whose height is known from the item (no measuring): only the rows in
 * view (plus OVERSCAN_PX) are in the DOM, so a queue of 10k items costs a few dozen rows. Fills its
 * flex parent.
 */
export function VirtualList<T>({ items, rowHeight, getKey, renderRow, testId }: { items: T[]; rowHeight: (item: T) => number; getKey: (item: T) => string; renderRow: (item: T) => ReactNode; testId?: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useElementSize(container, VIEWPORT_FALLBACK).height;

  /** offsets[i] = top of row i; offsets[items.length] = total height. */
  const offsets = useMemo(() => {
    const out = new Array<number>(items.length + 1);
    out[0] = 0;
    for (let i = 0; i < items.length; i++) out[i + 1] = (out[i] as number) + rowHeight(items[i] as T);
    return out;
  }, [items, rowHeight]);

  const first = rowAt(offsets, Math.max(0, scrollTop - OVERSCAN_PX));
  const last = Math.min(items.length, rowAt(offsets, scrollTop + viewport + OVERSCAN_PX) + 1);
  const visible = items.slice(first, last);

  return (
    <div ref={container} data-testid={testId} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} style={{ flex: 1, minHeight: 0, overflowY: 'auto', position: 'relative' }}>
      <div style={{ height: offsets[items.length], position: 'relative' }}>
        <div style={{ position: 'absolute', top: offsets[first], left: 0, right: 0 }}>
          {visible.map((item) => (
            // Strict containment: a row's height is known, so a progress step inside it re-lays out that row alone.
            <div key={getKey(item)} style={{ height: rowHeight(item), overflow: 'hidden', contain: 'strict' }}>
              {renderRow(item)}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
