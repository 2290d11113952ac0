import { Button } from 'antd';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent, type RefObject } from 'react';
import { dotAfterKey, dotAt, dotCentre, dotLabel, GESTURE_DOTS, joinDot, type Pattern } from '../../common/gesture/pattern';

export type PadLook = 'drawing' | 'error' | 'ok';

export interface GesturePadProps {
  /** A finished pattern (pointer lifted, or 完成 pressed): the parent judges it and remounts the pad (`key`) to clear it. */
  onComplete: (pattern: Pattern) => void;
  /** How the drawn line is coloured after completion (red for a wrong pattern). */
  look?: PadLook;
  disabled?: boolean;
  /** Width and height in px; shrinks to fit narrower screens. */
  size?: number;
  /** What the pad is for, read by screen readers (e.g. 解锁手势). */
  label: string;
  testId?: string;
}

const COLORS: Record<PadLook, string> = { drawing: '#1677ff', error: '#ff4d4f', ok: '#52c41a' };
const DOT_IDS = Array.from({ length: GESTURE_DOTS }, (_, i) => i);

/**
 * A 3×3 手势密码 pad (rules in common/gesture/pattern.ts). With a mouse or a finger: press on a dot
 * and draw through the others, lift to finish. With a keyboard: each dot is a button (arrow keys
 * move between them, Enter or Space joins the focused one), then 完成 finishes and 重画 starts
 * again. The joined dots are drawn as a line; nothing of the pattern outlives the pad.
 */
export function GesturePad({ onComplete, look = 'drawing', disabled = false, size = 252, label, testId = 'gesture-pad' }: GesturePadProps) {
  const box = useRef<HTMLDivElement>(null);
  const dots = useRef<Array<HTMLButtonElement | null>>([]);
  const [pattern, setPattern] = useState<Pattern>([]);
  const [pointer, setPointer] = useState<{ x: number; y: number } | null>(null);
  const [done, setDone] = useState(false);
  const [focusDot, setFocusDot] = useState(4);
  const drawing = useRef(false);
  const side = useFittedSize(box, size);

  const finish = useCallback(
    (p: Pattern) => {
      if (p.length === 0) return;
      setDone(true);
      onComplete(p);
    },
    [onComplete],
  );

  const local = (e: PointerEvent) => {
    const rect = box.current!.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    if (disabled || done || e.button !== 0) return;
    const at = local(e);
    const dot = dotAt(at.x, at.y, side);
    if (dot === null) return;
    e.preventDefault();
    box.current!.setPointerCapture?.(e.pointerId);
    drawing.current = true;
    setPattern([dot]);
    setPointer(at);
  }

  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    if (!drawing.current) return;
    const at = local(e);
    setPointer(at);
    const dot = dotAt(at.x, at.y, side);
    if (dot !== null) setPattern((p) => joinDot(p, dot));
  }

  function onPointerUp() {
    if (!drawing.current) return;
    drawing.current = false;
    setPointer(null);
    setPattern((p) => {
      // Outside React's update: onComplete may set the parent's state.
      queueMicrotask(() => finish(p));
      return p;
    });
  }

  function onDotKey(e: KeyboardEvent<HTMLButtonElement>, dot: number) {
    const next = dotAfterKey(dot, e.key);
    if (next === null) return;
    e.preventDefault();
    setFocusDot(next);
    dots.current[next]?.focus();
  }

  // Keyboard and assistive technology: a click that no pointer made (detail 0) joins the dot.
  function onDotClick(e: MouseEvent, dot: number) {
    if (e.detail !== 0 || disabled || done) return;
    setFocusDot(dot);
    setPattern((p) => joinDot(p, dot));
  }

  function restart() {
    setDone(false);
    setPattern([]);
  }

  const color = COLORS[done ? look : 'drawing'];
  const centres = pattern.map((d) => dotCentre(d, side));
  const points = [...centres, ...(pointer ? [pointer] : [])].map((c) => `${c.x},${c.y}`).join(' ');
  const radius = side / 3 / 2 - 10;

  return (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 12 }}>
      <div
        ref={box}
        role="group"
        aria-label={`${label}：九宫格，方向键移动，回车或空格连接当前点`}
        data-testid={testId}
        data-pattern-length={pattern.length}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        style={{ position: 'relative', width: side, height: side, touchAction: 'none', userSelect: 'none', opacity: disabled ? 0.5 : 1 }}
      >
        <svg width={side} height={side} style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }} aria-hidden="true">
          {pattern.length > 0 && <polyline points={points} fill="none" stroke={color} strokeWidth={6} strokeLinecap="round" strokeLinejoin="round" opacity={0.75} />}
        </svg>
        {DOT_IDS.map((dot) => {
          const c = dotCentre(dot, side);
          const on = pattern.includes(dot);
          return (
            <button
              key={dot}
              ref={(el) => {
                dots.current[dot] = el;
              }}
              type="button"
              aria-label={`${dotLabel(dot)}${on ? `，第${pattern.indexOf(dot) + 1}个` : ''}`}
              aria-pressed={on}
              tabIndex={dot === focusDot ? 0 : -1}
              disabled={disabled}
              data-dot={dot}
              onKeyDown={(e) => onDotKey(e, dot)}
              onClick={(e) => onDotClick(e, dot)}
              onFocus={() => setFocusDot(dot)}
              style={{
                position: 'absolute',
                left: c.x - radius,
                top: c.y - radius,
                width: radius * 2,
                height: radius * 2,
                borderRadius: '50%',
                border: `2px solid ${on ? color : '#bfbfbf'}`,
                background: on ? `${color}22` : '#fff',
                padding: 0,
                cursor: disabled ? 'not-allowed' : 'pointer',
                display: 'flex',
                alignItems: 'center',
                justifyContent: 'center',
                touchAction: 'none',
              }}
            >
              <span style={{ width: 14, height: 14, borderRadius: '50%', background: on ? color : '#8c8c8c' }} />
            </button>
          );
        })}
      </div>
      <div style={{ display: 'flex', gap: 8 }}>
        <Button disabled={disabled || pattern.length === 0} onClick={restart} data-testid={`${testId}-clear`}>
          重画
        </Button>
        <Button type="primary" disabled={disabled || done || pattern.length === 0} onClick={() => finish(pattern)} data-testid={`${testId}-done`}>
          完成
        </Button>
      </div>
    </div>
  );
}

/** `size`, or less when the pad's container is narrower (a 390 px phone keeps margins). */
function useFittedSize(ref: RefObject<HTMLDivElement | null>, size: number): number {
  const [side, setSide] = useState(size);
  useEffect(() => {
    const parent = ref.current?.parentElement?.parentElement;
    if (!parent || typeof ResizeObserver === 'undefined') return;
    const fit = () => setSide(Math.max(180, Math.min(size, Math.floor(parent.clientWidth))));
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(parent);
    return () => observer.disconnect();
  }, [ref, size]);
  return side;
}
