import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import type { FileEntry } from '../../../../common/api/types';
import { SELECT_QUERY_PARAM } from '../file-locations';
import type { EntryPages } from './use-entry-pages';

/** Pages of a folder loaded at most to find an entry to select: a link names an entry, not its page. */
const REVEAL_MAX_PAGES = 50;
/** How long an entry just made stays marked in the list. */
const FRESH_MARK_MS = 3000;

/**
 * Calls `found` once per `key` when the listing holds `wanted`, loading pages until it comes (at most
 * REVEAL_MAX_PAGES): the list is virtualised and keyset-paged, so an entry far down the order is
 * neither rendered nor, past the first page, loaded.
 */
function useFoundEntry(pages: EntryPages<FileEntry>, key: string | null, wanted: string | null, found: (id: string) => void): void {
  const [done, setDone] = useState<string | null>(null);
  const loaded = useRef<{ key: string | null; pages: number }>({ key: null, pages: 0 });
  useEffect(() => {
    if (!key || !wanted || done === key) return;
    if (loaded.current.key !== key) loaded.current = { key, pages: 0 };
    if (pages.items.some((e) => e.id === wanted)) {
      setDone(key);
      found(wanted);
      return;
    }
    if (pages.hasMore && !pages.loading && loaded.current.pages < REVEAL_MAX_PAGES) {
      loaded.current.pages++;
      pages.loadMore();
    }
  }, [key, wanted, done, pages, found]);
}

/**
 * `?select=<id>` (a message links to its file): once the folder's list holds the entry it is selected
 * with the cursor on it (which scrolls it into view), once per link.
 */
export function useRevealedEntry(pages: EntryPages<FileEntry>, dir: string | null, focus: (id: string) => void): void {
  const wanted = new URLSearchParams(useSearch()).get(SELECT_QUERY_PARAM);
  useFoundEntry(pages, wanted ? `${dir ?? ''}/${wanted}` : null, wanted, focus);
}

export interface NewEntryReveal {
  /** An entry just made in the folder shown (新建文件夹, 新建文本文件): show it. */
  reveal: (id: string) => void;
  /** The entry marked as just made, for a moment. */
  freshId: string | null;
}

/**
 * Shows what the user just made, as a desktop file manager does: the list sorts it among the rest,
 * often below the rows in view (folders by name, a big folder), and a 确定 that changed nothing on
 * the screen looked like it had failed. Once listed, the cursor goes to it (which scrolls it into
 * view) and it is marked for FRESH_MARK_MS; the selection stays as it was, so the toolbar does not
 * change under the user.
 */
export function useNewEntryReveal(pages: EntryPages<FileEntry>, dir: string | null, pointAt: (id: string) => void): NewEntryReveal {
  const [asked, setAsked] = useState<{ id: string; dir: string | null } | null>(null);
  const [freshId, setFreshId] = useState<string | null>(null);
  const wanted = asked && asked.dir === dir ? asked.id : null;
  const found = useCallback(
    (id: string) => {
      pointAt(id);
      setFreshId(id);
    },
    [pointAt],
  );
  useFoundEntry(pages, wanted ? `new:${dir ?? ''}/${wanted}` : null, wanted, found);
  useEffect(() => {
    if (!freshId) return;
    const timer = setTimeout(() => setFreshId(null), FRESH_MARK_MS);
    return () => clearTimeout(timer);
  }, [freshId]);
  const reveal = useCallback((id: string) => setAsked({ id, dir }), [dir]);
  return { reveal, freshId };
}
