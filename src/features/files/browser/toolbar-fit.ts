/**
 * How many toolbar buttons fit on one line: the toolbar never wraps (a second line pushed the list
 * down whenever something was selected), so what does not fit goes into a 更多 menu. Widths are
 * estimated from the labels — antd's default button is 15 px padding and a 1 px border each side
 * around 14 px text — rather than measured, so the first paint is already final.
 */

/** Width of `text` at 14 px: CJK characters are square, Latin letters and digits about half. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += /[\u2e80-\u9fff\uff00-\uffef]/.test(ch) ? 14 : 8;
  return width;
}

/** A default-size antd button with `label` (and an icon when `icon`: 14 px plus an 8 px gap). */
export function buttonWidth(label: string, icon = false): number {
  return 32 + textWidth(label) + (icon ? 22 : 0);
}

/** Width kept for the 更多 button. */
export const MORE_BUTTON_WIDTH = buttonWidth('更多', true);

/**
 * Of `widths` (in order), how many fit in `available` px, leaving room for a 更多 button when some
 * do not. At least `min` are always shown.
 */
export function fittingCount(widths: readonly number[], available: number, min = 1): number {
  const total = widths.reduce((a, b) => a + b, 0);
  if (total <= available) return widths.length;
  let used = MORE_BUTTON_WIDTH;
  let n = 0;
  while (n < widths.length && used + widths[n]! <= available) used += widths[n++]!;
  return Math.max(Math.min(min, widths.length), n);
}
