import { useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { FileEntry } from '../../../../common/api/types';
import { SELECT_QUERY_PARAM } from '../file-locations';
import type { EntryPages } from './use-entry-pages';

/** Pages of a folder loaded at most to find an entry to select: a link names an entry, not its page. */
const REVEAL_MAX_PAGES = 50;

/**
 * `?select=<id>` (a message links to its file): once the folder's list holds the entry it is selected
 * with the cursor on it (which scrolls it into view) — pages are loaded until it comes, at most
 * REVEAL_MAX_PAGES — once per link.
 */
export function useRevealedEntry(pages: EntryPages<FileEntry>, dir: string | null, focus: (id: string) => void): void {
  const wanted = new URLSearchParams(useSearch()).get(SELECT_QUERY_PARAM);
  const [revealed, setRevealed] = useState<string | null>(null);
  const loaded = useRef(0);
  const key = wanted ? `${dir ?? ''}/${wanted}` : null;
  useEffect(() => {
    if (!key || !wanted || revealed === key) return;
    if (pages.items.some((e) => e.id === wanted)) {
      setRevealed(key);
      focus(wanted);
      return;
    }
    if (pages.hasMore && !pages.loading && loaded.current < REVEAL_MAX_PAGES) {
      loaded.current++;
      pages.loadMore();
    }
  }, [key, wanted, revealed, pages, focus]);
}
