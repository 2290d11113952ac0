/**
 * Moving through a file list with the keyboard, as in a desktop file manager: arrows move the
 * cursor (by one in a list; in a grid left/right by one and up/down by a row of tiles), Home/End to
 * the ends, PageUp/PageDown by a screen. Pure, shared by the list and grid views.
 */

export type NavKey = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight' | 'Home' | 'End' | 'PageUp' | 'PageDown';

const NAV_KEYS: ReadonlySet<string> = new Set<NavKey>(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

export const isNavKey = (key: string): key is NavKey => NAV_KEYS.has(key);

/** How a view lays its items out: tiles per row (1 in the list) and rows per screen. */
export interface ViewLayout {
  columns: number;
  pageRows: number;
}

/**
 * The index the cursor moves to from `current` (-1: no cursor yet), or null when the key means
 * nothing in this layout (left/right in a one-column list) or the list is empty.
 */
export function nextIndex(current: number, count: number, key: NavKey, layout: ViewLayout): number | null {
  if (count === 0) return null;
  const columns = Math.max(1, layout.columns);
  if ((key === 'ArrowLeft' || key === 'ArrowRight') && columns === 1) return null;
  if (current < 0 || current >= count) return key === 'ArrowUp' || key === 'ArrowLeft' || key === 'End' ? count - 1 : 0;
  const page = columns * Math.max(1, layout.pageRows);
  let next: number;
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'ArrowLeft':
      next = current - 1;
      break;
    case 'ArrowRight':
      next = current + 1;
      break;
    case 'ArrowUp':
      next = current - columns;
      break;
    case 'ArrowDown':
      // In a grid, down from a row above an incomplete last row lands on the last tile.
      next = current + columns;
      if (next >= count && Math.floor(current / columns) < Math.floor((count - 1) / columns)) next = count - 1;
      break;
    case 'PageUp':
      next = current - page;
      break;
    case 'PageDown':
      next = current + page;
      break;
  }
  if (key === 'ArrowUp' || key === 'ArrowDown' || key === 'ArrowLeft' || key === 'ArrowRight') return next < 0 || next >= count ? current : next;
  return Math.min(count - 1, Math.max(0, next));
}

/** The ids from `a` to `b` (both included) in list order; just `b` when `a` is not in the list. */
export function rangeIds(ids: readonly string[], a: string, b: string): string[] {
  const i = ids.indexOf(a);
  const j = ids.indexOf(b);
  if (j < 0) return [];
  if (i < 0) return [b];
  return ids.slice(Math.min(i, j), Math.max(i, j) + 1);
}
