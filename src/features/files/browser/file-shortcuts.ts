/**
 * The file pages' keyboard, as in a desktop file manager: in the list, arrows / Home / End /
 * PageUp / PageDown move the cursor (Shift extends the selection, Ctrl moves without selecting),
 * Space toggles the entry under it, Enter opens it; anywhere on the page Ctrl/⌘+A selects every
 * loaded entry, Esc clears the selection, Delete (⌘⌫) deletes it (purges in the recycle bin) and F2
 * renames it. Typing in a field, a dialog or a menu is never a shortcut; a row's checkbox is part of
 * the list.
 */
import type { KeyboardEvent, RefObject } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import type { FileAction } from '../actions/file-actions';
import { isNavKey, type ViewLayout } from './keyboard-nav';
import type { ListSelection } from './use-list-selection';

export interface ShortcutTarget {
  list: ListSelection;
  layout: RefObject<ViewLayout>;
  /** The recycle bin: Delete purges. */
  recycle: boolean;
  open: (file: FileEntry) => void;
  /** Runs an action on the selection when it is offered and usable; false when it is not. */
  act: (action: FileAction) => boolean;
}

const NOT_SHORTCUTS = 'input:not([type="checkbox"]), textarea, [contenteditable="true"], .ant-modal, .ant-drawer, .ant-dropdown, .ant-select-dropdown';

/** The page's keydown handler. */
export function fileShortcuts({ list, layout, recycle, open, act }: ShortcutTarget): (e: KeyboardEvent) => void {
  return (e) => {
    const target = e.target as HTMLElement;
    if (target.closest(NOT_SHORTCUTS)) return;
    const listBox = target.closest<HTMLElement>('[data-file-list]');
    const ctrl = e.ctrlKey || e.metaKey;
    if (ctrl && e.key.toLowerCase() === 'a' && !e.shiftKey && !e.altKey) {
      e.preventDefault();
      list.handlers.selectAll(true);
      return;
    }
    if (e.key === 'Escape') {
      if (list.selectedIds.length > 0) {
        e.preventDefault();
        list.clear();
      }
      return;
    }
    if (listBox && isNavKey(e.key) && !e.altKey) {
      if (list.move(e.key, e.shiftKey, ctrl && !e.shiftKey, layout.current ?? { columns: 1, pageRows: 10 })) {
        e.preventDefault();
        listBox.focus({ preventScroll: true });
      }
      return;
    }
    // On the list itself (a link or button inside a row keeps its own Enter and Space).
    const onList = target === listBox || (listBox !== null && target.matches('input[type="checkbox"]'));
    if (onList && e.key === 'Enter') {
      const entry = list.cursorEntry();
      if (entry) {
        e.preventDefault();
        open(entry);
      }
      return;
    }
    if (target === listBox && e.key === ' ') {
      e.preventDefault();
      list.toggleCursor();
      return;
    }
    const deleting = e.key === 'Delete' || (e.key === 'Backspace' && e.metaKey);
    const action: FileAction | null = deleting ? (recycle ? 'purge' : 'delete') : e.key === 'F2' ? 'rename' : null;
    if (action && act(action)) e.preventDefault();
  };
}
