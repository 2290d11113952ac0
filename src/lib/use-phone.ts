/**
 * A phone-sized screen: below antd's `md` breakpoint (768 px). The layout turns the menu into a
 * drawer, the transfer list into a bottom sheet and the file table into a one-column list.
 */
import { Grid } from 'antd';

export function usePhone(): boolean {
  const screens = Grid.useBreakpoint();
  // Before the first measurement every breakpoint is undefined: assume a wide screen.
  return screens.md === false;
}

/** Touch targets on phones are at least this tall (WCAG 2.5.5). */
export const TOUCH_TARGET_PX = 44;
