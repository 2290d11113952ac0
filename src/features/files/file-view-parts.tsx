/** What the list view (FileTable) and the grid view (FileGrid) share. */
import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type MutableRefObject, type ReactElement, type RefObject } from 'react';
import type { FileEntry } from '../../../common/api/types';
import type { BrowserMode } from './file-actions';
import type { ViewLayout } from './keyboard-nav';
import type { ItemHandlers } from './use-list-selection';
import type { EntryPages } from './use-entry-pages';

/** The props both views take. */
export interface FileViewProps {
  mode: BrowserMode;
  pages: EntryPages<FileEntry>;
  selectedIds: string[];
  /** The keyboard cursor: outlined, scrolled into view, the grid's active descendant. */
  cursorId: string | null;
  handlers: ItemHandlers;
  /** The context menu for the current selection. */
  contextMenu: MenuProps;
  /** The row's 下载 button (hidden when the user may not download). */
  onDownload: ((file: FileEntry) => void) | null;
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
 * tile under the pointer joins the selection first, see ItemHandlers.contextMenu).
 */
export function ContextMenuArea({ contextMenu, hasSelection, children }: { contextMenu: MenuProps; hasSelection: boolean; children: ReactElement }) {
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      menu={{
        ...contextMenu,
        onClick: (info) => {
          setOpen(false);
          contextMenu.onClick?.(info);
        },
      }}
      trigger={['contextMenu']}
      open={open && hasSelection}
      onOpenChange={setOpen}
    >
      {children}
    </Dropdown>
  );
}

/** ⋮: opens the one context menu at the button, for this entry (selected first when it was not). */
export function MoreButton({ file, handlers, style }: { file: FileEntry; handlers: RefObject<{ handlers: ItemHandlers }>; style?: CSSProperties }) {
  return (
    <Button
      type="text"
      size="small"
      icon={<MoreOutlined />}
      aria-label={`更多操作：${file.name}`}
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
