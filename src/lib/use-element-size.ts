import { type RefObject, useLayoutEffect, useState } from 'react';

export interface ElementSize {
  width: number;
  height: number;
}

/**
 * The element's current content size in px (ResizeObserver), for components that need numbers — a
 * virtualised table's scroll box — inside a flex layout that decides the size.
 */
export function useElementSize(ref: RefObject<HTMLElement | null>, fallback: ElementSize): ElementSize {
  const [size, setSize] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = (): void => {
      const width = Math.floor(el.clientWidth) || fallback.width;
      const height = Math.floor(el.clientHeight) || fallback.height;
      setSize((prev) => (prev.width === width && prev.height === height ? prev : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, fallback.width, fallback.height]);
  return size;
}
