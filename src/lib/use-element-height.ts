import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * The element's current content height in px (ResizeObserver), for components that need a number —
 * a virtualised table's scroll height — inside a flex layout that decides the height.
 */
export function useElementHeight(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [height, setHeight] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (): void => setHeight(Math.max(0, Math.floor(el.clientHeight)) || fallback);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, fallback]);
  return height;
}
