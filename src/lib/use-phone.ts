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

/**
 * The phone's floating button (the transfer list's, bottom right): its distance from the screen's
 * bottom and right edges, and its height.
 */
export const PHONE_FLOAT_EDGE_PX = 16;
export const PHONE_FLOAT_HEIGHT_PX = 48;

/**
 * Where a phone's notices stand: their bottom edge this far above the screen's, clear of the floating
 * button (and its badge) so a notice never lies over the one control that is always there.
 */
export const PHONE_NOTICE_BOTTOM_PX = PHONE_FLOAT_EDGE_PX + PHONE_FLOAT_HEIGHT_PX + 12;
