/**
 * Selection in a file list, by mouse and keyboard, the way a desktop file manager does it: a click
 * selects one entry, Ctrl/⌘-click adds or removes one, Shift-click selects the range from the last
 * clicked entry; arrows move a cursor (Shift extends the selection, Ctrl moves without selecting),
 * Space toggles the entry under the cursor, Ctrl/⌘+A selects every loaded entry, Esc clears.
 * The handlers keep one identity for the life of the list (the virtual rows are memoised on them).
 */
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import { nextIndex, rangeIds, type NavKey, type ViewLayout } from './keyboard-nav';

export interface ItemHandlers {
  click: (file: FileEntry, e: Pick<MouseEvent, 'ctrlKey' | 'metaKey' | 'shiftKey'>) => void;
  /** Right click or ⋮: the menu acts on the selection, which then includes this entry. */
  contextMenu: (file: FileEntry) => void;
  /** A row's or tile's checkbox. */
  toggle: (file: FileEntry, checked: boolean) => void;
  /** The header's 全选. */
  selectAll: (checked: boolean) => void;
  /** Double click, the name, Enter: open a folder, preview or download a file. */
  activate: (file: FileEntry) => void;
}

export interface ListSelection {
  selectedIds: string[];
  cursorId: string | null;
  setSelectedIds: (ids: string[]) => void;
  handlers: ItemHandlers;
  /** Arrow, Home/End, PageUp/PageDown; true when the cursor moved. */
  move: (key: NavKey, extend: boolean, keepSelection: boolean, layout: ViewLayout) => boolean;
  /** Space: the entry under the cursor in or out of the selection. */
  toggleCursor: () => void;
  /** The entry under the cursor (or the only selected one). */
  cursorEntry: () => FileEntry | null;
  clear: () => void;
  /** Selects just this entry and puts the cursor on it (which scrolls it into view). */
  focus: (id: string) => void;
  /** Puts the cursor on this entry (which scrolls it into view); the selection stays as it is. */
  pointAt: (id: string) => void;
  /** Another listing: no selection, no cursor. */
  reset: () => void;
}

export function useListSelection(items: readonly FileEntry[], onActivate: (file: FileEntry) => void): ListSelection {
  const [selectedIds, setSelected] = useState<string[]>([]);
  const [cursorId, setCursor] = useState<string | null>(null);
  const latest = useRef({ items, onActivate, cursorId, selectedIds });
  useLayoutEffect(() => {
    latest.current = { items, onActivate, cursorId, selectedIds };
  });
  const anchor = useRef<string | null>(null);

  const point = useCallback((id: string | null, setAnchor: boolean) => {
    latest.current.cursorId = id;
    setCursor(id);
    if (setAnchor) anchor.current = id;
  }, []);

  const setSelectedIds = useCallback((ids: string[]) => {
    latest.current.selectedIds = ids;
    setSelected(ids);
  }, []);

  const handlers = useMemo<ItemHandlers>(
    () => ({
      click(file, e) {
        const chosen = latest.current.selectedIds;
        if (e.shiftKey && anchor.current) {
          const range = rangeIds(latest.current.items.map((i) => i.id), anchor.current, file.id);
          setSelectedIds(e.ctrlKey || e.metaKey ? [...new Set([...chosen, ...range])] : range);
          point(file.id, false);
          return;
        }
        if (e.ctrlKey || e.metaKey) setSelectedIds(chosen.includes(file.id) ? chosen.filter((id) => id !== file.id) : [...chosen, file.id]);
        else setSelectedIds([file.id]);
        point(file.id, true);
      },
      contextMenu(file) {
        if (!latest.current.selectedIds.includes(file.id)) setSelectedIds([file.id]);
        point(file.id, true);
      },
      toggle(file, checked) {
        const chosen = latest.current.selectedIds.filter((id) => id !== file.id);
        setSelectedIds(checked ? [...chosen, file.id] : chosen);
        point(file.id, true);
      },
      selectAll(checked) {
        setSelectedIds(checked ? latest.current.items.map((i) => i.id) : []);
      },
      activate(file) {
        latest.current.onActivate(file);
      },
    }),
    [point, setSelectedIds],
  );

  const move = useCallback(
    (key: NavKey, extend: boolean, keepSelection: boolean, layout: ViewLayout): boolean => {
      const ids = latest.current.items.map((i) => i.id);
      const current = latest.current.cursorId ? ids.indexOf(latest.current.cursorId) : -1;
      const next = nextIndex(current, ids.length, key, layout);
      if (next === null) return false;
      const id = ids[next]!;
      if (extend) {
        const from = anchor.current ?? latest.current.cursorId ?? id;
        anchor.current = from;
        setSelectedIds(rangeIds(ids, from, id));
        point(id, false);
      } else {
        if (!keepSelection) setSelectedIds([id]);
        point(id, !keepSelection);
      }
      return true;
    },
    [point, setSelectedIds],
  );

  const cursorEntry = useCallback((): FileEntry | null => {
    const { items: list, cursorId: cursor, selectedIds: chosen } = latest.current;
    const id = cursor ?? (chosen.length === 1 ? chosen[0] : null);
    return list.find((i) => i.id === id) ?? null;
  }, []);

  const toggleCursor = useCallback(() => {
    const entry = cursorEntry();
    if (entry) handlers.toggle(entry, !latest.current.selectedIds.includes(entry.id));
  }, [cursorEntry, handlers]);

  const clear = useCallback(() => {
    // An empty selection keeps its array: a new [] re-rendered the whole list for nothing (at every
    // listing change, and in the page's mount, where it was a second synchronous render of the page).
    if (latest.current.selectedIds.length > 0) setSelectedIds([]);
    anchor.current = null;
  }, [setSelectedIds]);

  const reset = useCallback(() => {
    clear();
    point(null, true);
  }, [clear, point]);

  const focus = useCallback(
    (id: string) => {
      setSelectedIds([id]);
      point(id, true);
    },
    [setSelectedIds, point],
  );

  const pointAt = useCallback((id: string) => point(id, true), [point]);

  return { selectedIds, cursorId, setSelectedIds, handlers, move, toggleCursor, cursorEntry, clear, focus, pointAt, reset };
}
