import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileEntry } from '../../../common/api/types';

export interface EntryPage<T extends FileEntry> {
  items: T[];
  nextCursor: string | null;
}

/** Loads one keyset page; `cursor` null = the first page. */
export type PageLoader<T extends FileEntry> = (cursor: string | null, signal: AbortSignal) => Promise<EntryPage<T>>;

export interface EntryPages<T extends FileEntry> {
  items: T[];
  loading: boolean;
  hasMore: boolean;
  loadMore: () => void;
  reload: () => void;
  /** Replaces rows in place (after lock, favorite... answered with the changed entries). */
  patch: (changed: readonly FileEntry[]) => void;
  /** Drops rows (deleted, moved away) without a round trip. */
  drop: (ids: readonly string[]) => void;
}

/**
 * Keyset-paged entries of one listing; pages are appended as `loadMore` is called. A new `loader`
 * (another folder, sort, keyword...) or `version` starts over and aborts the request in flight, so an
 * answer for an old listing never lands in the new one.
 */
export function useEntryPages<T extends FileEntry>(loader: PageLoader<T> | null, version: number): EntryPages<T> {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [reloadCount, setReloadCount] = useState(0);
  const current = useRef<AbortController | null>(null);
  const busy = useRef(false);
  const shownLoader = useRef<PageLoader<T> | null>(null);

  const fetchPage = useCallback(
    async (from: string | null, controller: AbortController) => {
      if (!loader) return;
      busy.current = true;
      setLoading(true);
      try {
        const page = await loader(from, controller.signal);
        if (controller.signal.aborted) return;
        setItems((prev) => (from === null ? page.items : [...prev, ...page.items]));
        setCursor(page.nextCursor);
        setHasMore(page.nextCursor !== null);
      } catch {
        if (!controller.signal.aborted) setHasMore(false);
      } finally {
        if (!controller.signal.aborted) {
          busy.current = false;
          setLoading(false);
        }
      }
    },
    [loader],
  );

  useEffect(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    busy.current = false;
    // Another listing starts empty; a reload of the same one keeps its rows until the fresh first page
    // replaces them (no flash of an empty table after each operation).
    if (shownLoader.current !== loader) {
      shownLoader.current = loader;
      setItems([]);
      setCursor(null);
      setHasMore(false);
    }
    void fetchPage(null, controller);
    return () => controller.abort();
  }, [fetchPage, loader, version, reloadCount]);

  const loadMore = useCallback(() => {
    const controller = current.current;
    if (!controller || busy.current || !hasMore || cursor === null) return;
    void fetchPage(cursor, controller);
  }, [cursor, fetchPage, hasMore]);

  const reload = useCallback(() => setReloadCount((n) => n + 1), []);

  const patch = useCallback((changed: readonly FileEntry[]) => {
    const byId = new Map(changed.map((e) => [e.id, e]));
    setItems((prev) => prev.map((item) => (byId.has(item.id) ? ({ ...item, ...byId.get(item.id) } as T) : item)));
  }, []);

  const drop = useCallback((ids: readonly string[]) => {
    const gone = new Set(ids);
    setItems((prev) => prev.filter((item) => !gone.has(item.id)));
  }, []);

  return { items, loading, hasMore, loadMore, reload, patch, drop };
}
