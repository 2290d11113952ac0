/**
 * 手势密码: a pattern over a 3×3 grid of dots, numbered row by row
 *
 *   0 1 2
 *   3 4 5
 *   6 7 8
 *
 * The rules are written once here, for the pad (src/components/GesturePad.tsx) and for the server,
 * which checks every pattern it is sent (server/services/gesture-service.ts). A pattern is the dots in
 * the order they were joined: each dot at most once, at least GESTURE_MIN_POINTS of them. As on the
 * phones people know it from, a line that runs straight over a dot not yet used joins that dot too
 * (0 → 2 passes 1), so what is drawn is what is stored.
 */

export const GESTURE_GRID = 3;
export const GESTURE_DOTS = GESTURE_GRID * GESTURE_GRID;
/** Fewer points are too easy to guess (and to watch over a shoulder). */
export const GESTURE_MIN_POINTS = 4;
/** The 5th wrong pattern in a row ends the session (server side). */
export const GESTURE_MAX_TRIES = 5;
/** The tenant's idle time before the lock is asked (minutes, 系统配置 beside the switch). */
export const GESTURE_IDLE_DEFAULT = 5;
export const GESTURE_IDLE_MIN = 1;
export const GESTURE_IDLE_MAX = 1440;

export type Pattern = readonly number[];

const rowOf = (dot: number) => Math.floor(dot / GESTURE_GRID);
const colOf = (dot: number) => dot % GESTURE_GRID;

export function isDot(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < GESTURE_DOTS;
}

/** The dot exactly half way between two dots (0 and 2 → 1, 0 and 8 → 4), or null when there is none. */
export function dotBetween(a: number, b: number): number | null {
  const [r1, c1, r2, c2] = [rowOf(a), colOf(a), rowOf(b), colOf(b)];
  if ((r1 + r2) % 2 !== 0 || (c1 + c2) % 2 !== 0) return null;
  const mid = ((r1 + r2) / 2) * GESTURE_GRID + (c1 + c2) / 2;
  return mid === a || mid === b ? null : mid;
}

/**
 * The pattern after joining `dot`: unchanged when the dot is used already; a dot passed over on the
 * way (not yet used) is joined first.
 */
export function joinDot(pattern: Pattern, dot: number): Pattern {
  if (!isDot(dot) || pattern.includes(dot)) return pattern;
  const last = pattern[pattern.length - 1];
  const between = last === undefined ? null : dotBetween(last, dot);
  return between !== null && !pattern.includes(between) ? [...pattern, between, dot] : [...pattern, dot];
}

export type PatternProblem = 'tooShort' | 'repeated' | 'notADot' | 'skipsADot';

/**
 * Why a pattern cannot be used, or null when it can: the server refuses what a pad could not have
 * drawn (a dot twice, a jump over an unused dot).
 */
export function patternProblem(pattern: readonly unknown[]): PatternProblem | null {
  if (!pattern.every(isDot)) return 'notADot';
  const dots = pattern as number[];
  if (new Set(dots).size !== dots.length) return 'repeated';
  for (let i = 1; i < dots.length; i++) {
    const between = dotBetween(dots[i - 1]!, dots[i]!);
    if (between !== null && !dots.slice(0, i).includes(between)) return 'skipsADot';
  }
  if (dots.length < GESTURE_MIN_POINTS) return 'tooShort';
  return null;
}

/** What the pad says about a pattern it cannot take (Chinese, shown under the pad). */
export const PATTERN_PROBLEM_TEXT: Record<PatternProblem, string> = {
  tooShort: `至少连接 ${GESTURE_MIN_POINTS} 个点，请重新绘制`,
  repeated: '每个点只能连接一次，请重新绘制',
  notADot: '手势不正确，请重新绘制',
  skipsADot: '手势不正确，请重新绘制',
};

/** How a pattern is hashed: the dots in order, e.g. '0-4-8-5'. */
export function patternText(pattern: Pattern): string {
  return pattern.join('-');
}

/** The dot a key press on `dot` moves the focus to (arrow keys, Home, End), or null for other keys. */
export function dotAfterKey(dot: number, key: string): number | null {
  const [r, c] = [rowOf(dot), colOf(dot)];
  const at = (row: number, col: number) => Math.min(GESTURE_GRID - 1, Math.max(0, row)) * GESTURE_GRID + Math.min(GESTURE_GRID - 1, Math.max(0, col));
  switch (key) {
    case 'ArrowUp':
      return at(r - 1, c);
    case 'ArrowDown':
      return at(r + 1, c);
    case 'ArrowLeft':
      return at(r, c - 1);
    case 'ArrowRight':
      return at(r, c + 1);
    case 'Home':
      return 0;
    case 'End':
      return GESTURE_DOTS - 1;
    default:
      return null;
  }
}

/** A dot's name for screen readers: 第1行第2列. */
export function dotLabel(dot: number): string {
  return `第${rowOf(dot) + 1}行第${colOf(dot) + 1}列`;
}

/** Where dot `dot` sits in a pad of `size` px (its centre). */
export function dotCentre(dot: number, size: number): { x: number; y: number } {
  const cell = size / GESTURE_GRID;
  return { x: (colOf(dot) + 0.5) * cell, y: (rowOf(dot) + 0.5) * cell };
}

/**
 * The dot under a point of a pad of `size` px, or null: only inside a circle around each centre (not
 * the whole cell), so a diagonal stroke between two dots does not catch their neighbours.
 */
export function dotAt(x: number, y: number, size: number, hitRatio = 0.32): number | null {
  const cell = size / GESTURE_GRID;
  const col = Math.floor(x / cell);
  const row = Math.floor(y / cell);
  if (col < 0 || row < 0 || col >= GESTURE_GRID || row >= GESTURE_GRID) return null;
  const dot = row * GESTURE_GRID + col;
  const c = dotCentre(dot, size);
  return Math.hypot(x - c.x, y - c.y) <= cell * hitRatio ? dot : null;
}
