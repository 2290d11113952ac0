/** What the list view (FileTable) and the grid view (FileGrid) share. */
import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type MutableRefObject, type ReactNode, type RefObject } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import type { BrowserMode } from '../actions/file-actions';
import type { ViewLayout } from './keyboard-nav';
import type { ItemHandlers } from './use-list-selection';
import type { EntryPages } from '../listing/use-entry-pages';

/** The props both views take. */
export interface FileViewProps {
  mode: BrowserMode;
  pages: EntryPages<FileEntry>;
  selectedIds: string[];
  /** The keyboard cursor: outlined, scrolled into view, the grid's active descendant. */
  cursorId: string | null;
  /** An entry the user just made here, marked for a moment (listing/use-revealed-entry.ts). */
  freshId: string | null;
  handlers: ItemHandlers;
  /** The context menu for the current selection. */
  contextMenu: MenuProps;
  /** The row's 下载 button (hidden when the user may not download). */
  onDownload: ((file: FileEntry) => void) | null;
  /** Why the row's 下载 cannot be used now (the menus' reason: offline, preview-only…), or null. */
  downloadBlocked: (file: FileEntry) => string | null;
  /** What an empty list shows (null while it loads): 暂无文件, a page's own explanation, or that it is not cached offline. */
  empty: ReactNode;
  /** Told the view's columns and rows per screen, for the arrow keys. */
  layoutRef: MutableRefObject<ViewLayout>;
}

/** The latest value of a prop, for handlers that must not change identity on every render. */
export function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** DOM id of an entry's row or tile (aria-activedescendant of the focused list). */
export const itemDomId = (id: string): string => `file-item-${id.replace(/[^\w-]/g, '_')}`;

/** Keeps the cursor's row (of `rowHeight`, `index` rows down) in view of `body` when the cursor moves. */
export function useScrollCursorIntoView(body: RefObject<HTMLElement | null>, row: number, rowHeight: number, cursorId: string | null): void {
  useEffect(() => {
    const el = body.current;
    if (!el || row < 0) return;
    const top = row * rowHeight;
    if (top < el.scrollTop) el.scrollTop = top;
    else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
    // Only when the cursor moves: scrolling by hand must not snap back to it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cursorId]);
}

/**
 * The right-click menu over a view: it always shows the current selection's actions (the row or
 * tile under the pointer joins the selection first, see ItemHandlers.contextMenu). It opens where the
 * pointer is; ⋮ sends a contextmenu event from its own corner.
 *
 * antd's Dropdown hangs on an empty anchor put at that point, and mounts at the first right-click.
 * Wrapped around the view instead (trigger contextMenu), it set state while mounting, in the first
 * commit of every file page, and React then ran the effects of the whole shell, and a re-render, in
 * that commit's task (Lighthouse: total blocking time). The anchor is 1 px (antd aligns no menu to a
 * box without size) and lets the pointer through to the row under it. It passes focus on to what
 * had it when the menu opened (the list): antd returns focus to the anchor when the menu closes by
 * keyboard.
 */
export function ContextMenuArea({ contextMenu, hasSelection, children }: { contextMenu: MenuProps; hasSelection: boolean; children: ReactNode }) {
  const [at, setAt] = useState<{ x: number; y: number } | null>(null);
  const [open, setOpen] = useState(false);
  const focusBefore = useRef<HTMLElement | null>(null);
  return (
    <div
      style={{ display: 'contents' }}
      onContextMenu={(e) => {
        e.preventDefault();
        focusBefore.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
        setAt({ x: e.clientX, y: e.clientY });
        setOpen(true);
      }}
    >
      {children}
      {at && (
        <Dropdown
          menu={{
            ...contextMenu,
            // Never taller than the room on the side it opens to: a long menu (offline, each item with its
            // reason) opened mid-screen on a phone ran off the bottom, its last items out of reach.
            style: { ...contextMenu.style, maxHeight: menuRoom(at.y), overflowY: 'auto' },
            onClick: (info) => {
              setOpen(false);
              contextMenu.onClick?.(info);
            },
          }}
          trigger={['click']}
          open={open && hasSelection}
          onOpenChange={setOpen}
        >
          <span tabIndex={-1} aria-hidden data-testid="context-menu-anchor" onFocus={() => focusBefore.current?.focus()} style={{ position: 'fixed', left: at.x, top: at.y, width: 1, height: 1, pointerEvents: 'none' }} />
        </Dropdown>
      )}
    </div>
  );
}

/** The larger of the room above and below `y` (a menu opens to whichever side fits), less a margin. */
function menuRoom(y: number): number {
  const MARGIN = 8;
  return Math.max(y, window.innerHeight - y) - 2 * MARGIN;
}

/** ⋮: opens the one context menu at the button, for this entry (selected first when it was not). */
export function MoreButton({ file, handlers, style }: { file: FileEntry; handlers: RefObject<{ handlers: ItemHandlers }>; style?: CSSProperties }) {
  return (
    <Button
      type="text"
      size="small"
      icon={<MoreOutlined />}
      aria-label={`更多操作：${file.name}`}
      title="更多操作"
      data-testid={`more-${file.id}`}
      style={style}
      onClick={(e) => {
        e.stopPropagation();
        handlers.current?.handlers.contextMenu(file);
        const r = e.currentTarget.getBoundingClientRect();
        e.currentTarget.dispatchEvent(new window.MouseEvent('contextmenu', { bubbles: true, clientX: r.left, clientY: r.bottom }));
      }}
      onDoubleClick={(e) => e.stopPropagation()}
    />
  );
}
