import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileCategory, FileEntry } from '../../../common/api/types';
import { listFiles } from './files-api';

export interface FilePages {
  items: FileEntry[];
  loading: boolean;
  hasMore: boolean;
  loadMore: () => void;
  reload: () => void;
}

/** Keyset-paged file list of one folder; pages are appended as `loadMore` is called. */
export function useFilePages(parentId: string | null, category: FileCategory, version: number): FilePages {
  const [items, setItems] = useState<FileEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [reloadCount, setReloadCount] = useState(0);
  /** Incremented for each new listing, so answers of an old folder are dropped. */
  const generation = useRef(0);
  const busy = useRef(false);

  const fetchPage = useCallback(
    async (from: string | null, gen: number) => {
      busy.current = true;
      setLoading(true);
      try {
        const page = await listFiles(parentId, category, from);
        if (gen !== generation.current) return;
        setItems((prev) => (from === null ? page.items : [...prev, ...page.items]));
        setCursor(page.nextCursor);
        setHasMore(page.nextCursor !== null);
      } catch {
        if (gen === generation.current) setHasMore(false);
      } finally {
        if (gen === generation.current) {
          busy.current = false;
          setLoading(false);
        }
      }
    },
    [parentId, category],
  );

  useEffect(() => {
    const gen = ++generation.current;
    void fetchPage(null, gen);
  }, [fetchPage, version, reloadCount]);

  const loadMore = useCallback(() => {
    if (busy.current || !hasMore || cursor === null) return;
    void fetchPage(cursor, generation.current);
  }, [cursor, fetchPage, hasMore]);

  const reload = useCallback(() => setReloadCount((n) => n + 1), []);

  return { items, loading, hasMore, loadMore, reload };
}
