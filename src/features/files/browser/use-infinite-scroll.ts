import { useEffect, useRef, type RefObject } from 'react';
import { INFINITE_SCROLL_THRESHOLD_PX, INFINITE_SCROLL_THROTTLE_MS } from '../../../../common/constants';
import { throttle } from '../../../lib/throttle';

/** True when the scrolled element's bottom is within the threshold (spec §9: 100 px). */
export function nearBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= INFINITE_SCROLL_THRESHOLD_PX;
}

/** The element that scrolls inside the file table (FileTable's body). */
const SCROLLER = '.ft-body';

/**
 * Calls `loadMore` when the table body inside `container` is scrolled near its bottom, throttled
 * (spec §9: 350 ms). Also checks after every change of `itemCount`, so a first page that does not fill
 * the table keeps loading.
 */
export function useInfiniteScroll(container: RefObject<HTMLElement | null>, loadMore: () => void, hasMore: boolean, itemCount: number): void {
  const loadMoreRef = useRef(loadMore);
  const hasMoreRef = useRef(hasMore);
  useEffect(() => {
    loadMoreRef.current = loadMore;
    hasMoreRef.current = hasMore;
  });

  useEffect(() => {
    const body = container.current?.querySelector<HTMLElement>(SCROLLER);
    if (!body) return;
    const check = throttle(() => {
      if (hasMoreRef.current && nearBottom(body)) loadMoreRef.current();
    }, INFINITE_SCROLL_THROTTLE_MS);
    body.addEventListener('scroll', check, { passive: true });
    check();
    return () => {
      body.removeEventListener('scroll', check);
      check.cancel();
    };
  }, [container, itemCount, hasMore]);
}
