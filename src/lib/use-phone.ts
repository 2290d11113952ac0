/**
 * A phone-sized screen: below antd's `md` breakpoint (768 px). The layout turns the menu into a
 * drawer, the transfer list into a bottom sheet and the file table into a one-column list.
 *
 * Read straight from a media query rather than antd's Grid.useBreakpoint: that hook learns the
 * screen in a layout effect and sets state there, so every component using it rendered twice at
 * mount, the second time synchronously (the app root uses it: the whole tree, in one long task).
 */
import { useSyncExternalStore } from 'react';

/** antd's `screenMD` (768 px): wide screens match this. */
const WIDE_QUERY = '(min-width: 768px)';

let wide: MediaQueryList | null = null;
const wideQuery = (): MediaQueryList | null => (wide ??= typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(WIDE_QUERY) : null);

function subscribe(onChange: () => void): () => void {
  const query = wideQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

// Without a window (or matchMedia) assume a wide screen.
const isPhone = (): boolean => wideQuery()?.matches === false;

export function usePhone(): boolean {
  return useSyncExternalStore(subscribe, isPhone, () => false);
}

/** Touch targets on phones are at least this tall (WCAG 2.5.5). */
export const TOUCH_TARGET_PX = 44;
