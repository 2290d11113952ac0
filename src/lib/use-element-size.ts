import { type RefObject, useEffect, useState } from 'react';

export interface ElementSize {
  width: number;
  height: number;
}

/**
 * The element's current content size in px (ResizeObserver), for components that need numbers — a
 * virtualised table's scroll box — inside a flex layout that decides the size. Until the first
 * observation it is `fallback`: pick one that errs on the generous side (the window's height for a
 * scroll box), so the first paint lacks nothing.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>, fallback: ElementSize): ElementSize {
  const [size, setSize] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (): void => {
      const width = Math.floor(el.clientWidth) || fallback.width;
      const height = Math.floor(el.clientHeight) || fallback.height;
      setSize((prev) => (prev.width === width && prev.height === height ? prev : { width, height }));
    };
    // No measuring here: reading the size in a layout effect forces the page's first layout inside
    // React's commit and then a synchronous re-render of the caller (Lighthouse: blocking time). The
    // observer reports the size after the browser's own layout, before the first paint.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, fallback.width, fallback.height]);
  return size;
}
