/**
 * Whether a CSS media query matches, read straight from `matchMedia` with useSyncExternalStore.
 *
 * Not antd's Grid.useBreakpoint: that hook learns the screen in a layout effect and sets state there,
 * so every component using it rendered twice at mount, the second time synchronously (the app root
 * uses these: the whole tree, in one long task).
 */
import { useSyncExternalStore } from 'react';

interface Watched {
  list: MediaQueryList | null;
  subscribe: (onChange: () => void) => () => void;
}

const watched = new Map<string, Watched>();

function watch(query: string): Watched {
  let entry = watched.get(query);
  if (!entry) {
    const list = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query) : null;
    entry = {
      list,
      subscribe: (onChange) => {
        list?.addEventListener('change', onChange);
        return () => list?.removeEventListener('change', onChange);
      },
    };
    watched.set(query, entry);
  }
  return entry;
}

/** Whether `query` matches now (re-rendering when that changes); `fallback` without a window or matchMedia. */
export function useMediaQuery(query: string, fallback: boolean): boolean {
  const { list, subscribe } = watch(query);
  return useSyncExternalStore(subscribe, () => list?.matches ?? fallback, () => fallback);
}
