/**
 * A phone-sized screen: below antd's `md` breakpoint (768 px). The layout turns the menu into a
 * drawer, the transfer list into a bottom sheet and the file table into a one-column list.
 */
import { useMediaQuery } from './use-media-query';

/** antd's `screenMD` (768 px): wide screens match this. */
const WIDE_QUERY = '(min-width: 768px)';

// Without a window (or matchMedia) assume a wide screen.
export function usePhone(): boolean {
  return !useMediaQuery(WIDE_QUERY, true);
}

/** Touch targets on phones are at least this tall (WCAG 2.5.5). */
export const TOUCH_TARGET_PX = 44;
