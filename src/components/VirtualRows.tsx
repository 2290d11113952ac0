import { useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { INFINITE_SCROLL_THRESHOLD_PX, INFINITE_SCROLL_THROTTLE_MS } from '../../common/constants';
import { throttle } from '../lib/throttle';
import { useElementSize } from '../lib/use-element-size';

const OVERSCAN = 8;

/**
 * A scroll box that renders only the rows in view (plus a few above and below): fixed row height, so
 * 20,000 people or 2,000 departments keep a few dozen rows in the DOM. `onNearEnd` (the next keyset
 * page) fires within 100 px of the bottom, at most every 350 ms (spec §9).
 */
export function VirtualRows(props: {
  count: number;
  rowHeight: number;
  renderRow: (index: number, style: CSSProperties) => ReactNode;
  onNearEnd?: () => void;
  style?: CSSProperties;
  testId?: string;
  empty?: ReactNode;
  role?: string;
  label?: string;
  /** Scroll this row into view, once per new object (a tree revealing its selection). */
  reveal?: { row: number } | null;
}) {
  const { count, rowHeight, renderRow, onNearEnd } = props;
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, { width: 800, height: typeof window === 'undefined' ? 600 : window.innerHeight });
  const [top, setTop] = useState(0);
  const nearEnd = useMemo(() => throttle(() => onNearEnd?.(), INFINITE_SCROLL_THROTTLE_MS), [onNearEnd]);
  useEffect(() => () => nearEnd.cancel(), [nearEnd]);

  // A short list (or a tall box) asks for more at once: there is nothing to scroll yet.
  useEffect(() => {
    if (onNearEnd && count * rowHeight <= size.height + INFINITE_SCROLL_THRESHOLD_PX) nearEnd();
  }, [count, rowHeight, size.height, onNearEnd, nearEnd]);

  useEffect(() => {
    const el = box.current;
    if (!el || !props.reveal) return;
    const y = props.reveal.row * rowHeight;
    if (y < el.scrollTop || y + rowHeight > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, y - (el.clientHeight - rowHeight) / 2);
      setTop(el.scrollTop);
    }
  }, [props.reveal, rowHeight]);

  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((top + size.height) / rowHeight) + OVERSCAN);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) rows.push(renderRow(i, { position: 'absolute', top: i * rowHeight, left: 0, right: 0, height: rowHeight }));

  return (
    <div
      ref={box}
      role={props.role}
      aria-label={props.label}
      data-testid={props.testId}
      style={{ overflow: 'auto', position: 'relative', flex: 1, minHeight: 0, ...props.style }}
      onScroll={(e) => {
        const el = e.currentTarget;
        setTop(el.scrollTop);
        if (el.scrollHeight - el.scrollTop - el.clientHeight <= INFINITE_SCROLL_THRESHOLD_PX) nearEnd();
      }}
    >
      {count === 0 ? props.empty : <div style={{ height: count * rowHeight, position: 'relative' }}>{rows}</div>}
    </div>
  );
}
