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

/**
 * The bottom inset of a phone's screen (the home indicator) where the browser reports one: 0 unless the
 * page is laid out under it (viewport-fit=cover), in which case the floating button and the clear space
 * below the last row both move up by it.
 */
const SAFE_AREA_BOTTOM = 'env(safe-area-inset-bottom, 0px)';

/** The floating button's `bottom`: its edge distance above the screen's bottom (and any inset). */
export const PHONE_FLOAT_BOTTOM = `calc(${PHONE_FLOAT_EDGE_PX}px + ${SAFE_AREA_BOTTOM})`;

/**
 * The clear space at the end of a phone's scrolling content: the floating button's footprint (edge
 * distance + height) and a gap, plus the inset. A layout rule, not a page's: scrolled to the end, any
 * page's last row stands above the button, as phone apps keep lists clear of a floating action button.
 */
export const PHONE_FLOAT_CLEARANCE = `calc(${PHONE_FLOAT_EDGE_PX + PHONE_FLOAT_HEIGHT_PX + 8}px + ${SAFE_AREA_BOTTOM})`;
