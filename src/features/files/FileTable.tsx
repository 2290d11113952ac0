import { MoreOutlined } from '@ant-design/icons';
import { Button, Checkbox, Dropdown, type MenuProps } from 'antd';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import type { FileEntry, FileSortField, SearchHit } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { displayKindOf } from '../../components/file-kind-look';
import { FileKindIcon } from '../../components/FileKindIcon';
import { useElementSize } from '../../lib/use-element-size';
import { TOUCH_TARGET_PX, usePhone } from '../../lib/use-phone';
import type { BrowserMode } from './file-actions';
import './file-table.css';
import { FileStateTags } from './FileStateTags';
import { nextSort, type SortState } from './sort-state';
import type { EntryPages } from './use-entry-pages';
import { useInfiniteScroll } from './use-infinite-scroll';

/** The checkbox column. */
const SELECTION_WIDTH = 40;
const NAME_MIN_WIDTH = 220;
const HEADER_HEIGHT = 47;
const FOOTER_HEIGHT = 32;
/** Before the body is measured: no scroll box is taller than the window. */
const viewportFallback = () => ({ width: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight });
/** Row heights: one line on a wide screen; name and a meta line, touch-sized, on a phone. */
const ROW_HEIGHT = 48;
const PHONE_ROW_HEIGHT = 64;
/** Rows rendered beyond the visible ones, above and below, so fast scrolling shows no gaps. */
const OVERSCAN_ROWS = 8;

export interface FileTableProps {
  mode: BrowserMode;
  pages: EntryPages<FileEntry>;
  selectedIds: string[];
  onSelect: (ids: string[]) => void;
  /** Double click / name click: opens a folder, previews or downloads a file. */
  onActivate: (file: FileEntry) => void;
  /** Null = this listing cannot be sorted by the server (or the user may not sort). */
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  /** The context menu for the current selection. */
  contextMenu: MenuProps;
  /** The row's 下载 button (hidden when the user may not download). */
  onDownload: ((file: FileEntry) => void) | null;
  /** 共享文件 at the top: who shared each entry, and when. */
  showSharer?: boolean;
  /** An entry to scroll into view (opened from a message: `?select=`). */
  revealId?: string | null;
}

interface Column {
  key: string;
  title: string;
  /** Null: the name column, which takes what the others leave. */
  width: number | null;
  sortField?: FileSortField;
  render: (file: FileEntry) => ReactNode;
}

/** The latest value of a prop, for handlers that must not change identity on every render. */
function useLatest<T>(value: T) {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/**
 * The file list: a virtualised table (only the rows in view are in the DOM, so a 100k-entry folder
 * scrolls smoothly), loading the next keyset page within 100 px of the bottom, server-side sort on the
 * column headers, checkboxes for multi-select, and a right-click menu that acts on the row under the
 * cursor (selecting it first when it was not selected).
 *
 * Drawn here rather than with antd's Table: rows have one height, so the virtualisation is a few lines,
 * and antd's Table brought its filters (Tree, Radio), pagination (Select) and per-render bookkeeping to
 * the first screen after login — about a sixth of its JavaScript.
 */
export function FileTable({ mode, pages, selectedIds, onSelect, onActivate, sort, onSort, contextMenu, onDownload, showSharer = false, revealId = null }: FileTableProps) {
  const box = useRef<HTMLDivElement>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  useInfiniteScroll(box, pages.loadMore, pages.hasMore, pages.items.length);

  const latest = useLatest({ selectedIds, onSelect, onActivate, onSort, onDownload, sort });
  const canDownload = onDownload !== null;
  const phone = usePhone();

  /** ⋮: opens the one context menu (it always shows the current selection's actions) at the button. */
  const moreButton = useCallback(
    (file: FileEntry, style?: CSSProperties) => (
      <Button
        type="text"
        size="small"
        icon={<MoreOutlined />}
        aria-label="更多操作"
        data-testid={`more-${file.id}`}
        style={style}
        onClick={(e) => {
          e.stopPropagation();
          const { selectedIds: chosen, onSelect: select } = latest.current;
          if (!chosen.includes(file.id)) select([file.id]);
          const r = e.currentTarget.getBoundingClientRect();
          e.currentTarget.dispatchEvent(new window.MouseEvent('contextmenu', { bubbles: true, clientX: r.left, clientY: r.bottom }));
        }}
      />
    ),
    [latest],
  );

  const columns = useMemo((): Column[] => {
    const sortable = (field: FileSortField) => (sort && mode === 'folder' ? { sortField: field } : {});
    const nameCell = (file: FileEntry) => (
      <span style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
        <FileKindIcon kind={displayKindOf(file)} encrypted={file.encrypted} />
        <a
          href="#"
          onClick={(e) => {
            e.preventDefault();
            e.stopPropagation();
            latest.current.onActivate(file);
          }}
          title={file.name}
          data-testid="file-name"
          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: 'inherit' }}
        >
          {file.name}
        </a>
        <FileStateTags file={file} />
      </span>
    );
    if (phone) {
      // One column and the ⋮ menu (every action, as on a wide screen); size and date under the name.
      return [
        {
          key: 'name',
          title: '名称',
          width: null,
          ...sortable('name'),
          render: (file) => (
            <div style={{ minWidth: 0, minHeight: TOUCH_TARGET_PX, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
              {nameCell(file)}
              <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.58)' }} data-testid="file-meta">
                {file.isDir ? '' : `${formatSize(file.size)} · `}
                {formatDateTime(mode === 'recycle' && file.deletedAt ? file.deletedAt : file.updatedAt)}
              </span>
            </div>
          ),
        },
        // The cell's padding (8 px each side) around a 44 px touch target.
        { key: 'actions', title: '', width: TOUCH_TARGET_PX + 16, render: (file) => moreButton(file, { width: TOUCH_TARGET_PX, height: TOUCH_TARGET_PX, flex: 'none' }) },
      ];
    }
    const cols: Column[] = [{ key: 'name', title: '名称', width: null, ...sortable('name'), render: nameCell }];
    if (mode === 'search') {
      cols.push({
        key: 'path',
        title: '位置',
        width: 200,
        render: (file) => {
          const hit = file as SearchHit;
          const where = [hit.spaceName ?? '', ...(hit.path ?? [])].filter(Boolean).join(' / ') || '根目录';
          return <span title={where} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{where}</span>;
        },
      });
    }
    if (showSharer) {
      cols.push(
        { key: 'sharer', title: '分享者', width: 120, render: (file) => <span data-testid="file-sharer">{file.share?.sharedBy.nickName ?? '-'}</span> },
        { key: 'sharedAt', title: '分享时间', width: 150, render: (file) => (file.share ? formatDateTime(file.share.sharedAt) : '-') },
      );
    }
    cols.push({ key: 'size', title: '大小', width: 120, ...sortable('size'), render: (file) => (file.isDir ? '-' : formatSize(file.size)) });
    if (mode === 'recycle') {
      cols.push(
        { key: 'deletedAt', title: '删除时间', width: 150, render: (file) => (file.deletedAt ? formatDateTime(file.deletedAt) : '-') },
        { key: 'expiresAt', title: '自动清除时间', width: 150, render: (file) => (file.expiresAt ? formatDateTime(file.expiresAt) : '-') },
      );
    } else {
      cols.push({ key: 'updatedAt', title: '修改时间', width: 170, ...sortable('updatedAt'), render: (file) => formatDateTime(file.updatedAt) });
    }
    cols.push({
      key: 'actions',
      title: '操作',
      // the recycle bin has no 下载 button, only the menu
      width: mode === 'recycle' ? 56 : 110,
      render: (file) => (
        <span style={{ display: 'inline-flex', gap: 2 }}>
          {canDownload && !file.isDir && mode !== 'recycle' && file.share?.permission !== 'preview' && (
            <Button
              type="link"
              size="small"
              onClick={(e) => {
                e.stopPropagation();
                latest.current.onDownload?.(file);
              }}
              data-testid={`download-${file.id}`}
            >
              下载
            </Button>
          )}
          {moreButton(file)}
        </span>
      ),
    });
    return cols;
  }, [mode, sort, canDownload, latest, phone, moreButton, showSharer]);

  // The name column takes what the fixed columns leave (CSS flex), so the table fits the box when it
  // can and scrolls sideways below this width. No JavaScript measuring: the first paint is final.
  const nameMinWidth = phone ? 160 : NAME_MIN_WIDTH;
  const minTableWidth = columns.reduce((sum, c) => sum + (c.width ?? 0), 0) + SELECTION_WIDTH + nameMinWidth;

  const onRowClick = useCallback(
    (file: FileEntry, e: MouseEvent) => {
      // A click selects the row alone; Ctrl/⌘-click adds or removes it.
      const { selectedIds: chosen, onSelect: select } = latest.current;
      if (e.ctrlKey || e.metaKey) select(chosen.includes(file.id) ? chosen.filter((id) => id !== file.id) : [...chosen, file.id]);
      else select([file.id]);
    },
    [latest],
  );
  const onRowContextMenu = useCallback(
    (file: FileEntry) => {
      const { selectedIds: chosen, onSelect: select } = latest.current;
      if (!chosen.includes(file.id)) select([file.id]);
    },
    [latest],
  );
  const onToggle = useCallback(
    (file: FileEntry, checked: boolean) => {
      const { selectedIds: chosen, onSelect: select } = latest.current;
      select(checked ? [...chosen.filter((id) => id !== file.id), file.id] : chosen.filter((id) => id !== file.id));
    },
    [latest],
  );

  const items = pages.items;
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const allSelected = items.length > 0 && items.every((f) => selected.has(f.id));
  const someSelected = !allSelected && items.some((f) => selected.has(f.id));
  const empty = items.length === 0;

  return (
    <div ref={box} style={{ flex: 1, minHeight: 0, overflow: 'hidden', display: 'flex', flexDirection: 'column' }} data-testid="file-table-box">
      <Dropdown
        menu={{
          ...contextMenu,
          onClick: (info) => {
            setMenuOpen(false);
            contextMenu.onClick?.(info);
          },
        }}
        trigger={['contextMenu']}
        open={menuOpen && selectedIds.length > 0}
        onOpenChange={setMenuOpen}
      >
        <div role="table" aria-label="文件列表" aria-rowcount={items.length + 1} className="ft-table" data-testid="file-table" data-count={items.length}>
          <div role="rowgroup" className="ft-headgroup" style={{ minWidth: minTableWidth }}>
            <div role="row" aria-rowindex={1} className="ft-head" style={{ height: HEADER_HEIGHT }}>
              <div role="columnheader" className="ft-th ft-check" style={{ width: SELECTION_WIDTH }}>
                <Checkbox
                  aria-label="全选"
                  checked={allSelected}
                  indeterminate={someSelected}
                  disabled={empty}
                  onChange={(e) => latest.current.onSelect(e.target.checked ? items.map((f) => f.id) : [])}
                  data-testid="select-all"
                />
              </div>
              {columns.map((c) => (
                <HeaderCell key={c.key} column={c} nameMinWidth={nameMinWidth} sort={sort} onSort={(next) => latest.current.onSort(next)} />
              ))}
            </div>
          </div>
          <EntryRows
            items={items}
            columns={columns}
            nameMinWidth={nameMinWidth}
            minTableWidth={minTableWidth}
            rowHeight={phone ? PHONE_ROW_HEIGHT : ROW_HEIGHT}
            selected={selected}
            emptyText={pages.loading ? '' : '暂无文件'}
            onRowClick={onRowClick}
            onRowContextMenu={onRowContextMenu}
            onToggle={onToggle}
            onActivate={(file) => latest.current.onActivate(file)}
            revealId={revealId}
          />
        </div>
      </Dropdown>
      <div style={{ height: FOOTER_HEIGHT, lineHeight: `${FOOTER_HEIGHT}px`, padding: '0 8px', color: '#8c8c8c' }} data-testid="file-table-footer">
        {pages.loading ? '加载中…' : pages.hasMore ? '向下滚动加载更多' : empty ? '' : `共 ${items.length} 项`}
      </div>
    </div>
  );
}

/** Fixed columns keep their width; the name column (no width) grows into the rest. */
const columnStyle = (column: Column, nameMinWidth: number): CSSProperties =>
  column.width !== null ? { width: column.width, flex: 'none' } : { flex: `1 0 ${nameMinWidth}px`, minWidth: nameMinWidth };

/** A column header; a sortable one asks for the next order when clicked (or Enter / Space). */
function HeaderCell({ column, nameMinWidth, sort, onSort }: { column: Column; nameMinWidth: number; sort: SortState | null; onSort: (sort: SortState) => void }) {
  const field = column.sortField;
  const active = field !== undefined && sort?.field === field ? sort.order : null;
  const activate = () => field && sort && onSort(nextSort(sort, field));
  return (
    <div
      role="columnheader"
      className="ft-th"
      style={columnStyle(column, nameMinWidth)}
      data-sortable={field ? 'true' : undefined}
      aria-sort={active === 'asc' ? 'ascending' : active === 'desc' ? 'descending' : field ? 'none' : undefined}
      tabIndex={field ? 0 : undefined}
      onClick={activate}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          activate();
        }
      }}
    >
      {column.title}
      {field && (
        <span className="ft-sort" aria-hidden>
          <span data-on={active === 'asc'}>▲</span>
          <span data-on={active === 'desc'}>▼</span>
        </span>
      )}
    </div>
  );
}

interface EntryRowsProps {
  items: FileEntry[];
  columns: Column[];
  nameMinWidth: number;
  minTableWidth: number;
  rowHeight: number;
  selected: ReadonlySet<string>;
  emptyText: string;
  onRowClick: (file: FileEntry, e: MouseEvent) => void;
  onRowContextMenu: (file: FileEntry) => void;
  onToggle: (file: FileEntry, checked: boolean) => void;
  onActivate: (file: FileEntry) => void;
  revealId: string | null;
}

/** The scrolling body: only the rows in view (and OVERSCAN_ROWS around them) are rendered. */
const EntryRows = memo(function EntryRows({ items, columns, nameMinWidth, minTableWidth, rowHeight, selected, emptyText, onRowClick, onRowContextMenu, onToggle, onActivate, revealId }: EntryRowsProps) {
  const body = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useElementSize(body, viewportFallback()).height;
  const revealAt = revealId ? items.findIndex((f) => f.id === revealId) : -1;
  // The revealed row comes to the middle of the view once it is loaded (once per entry).
  useEffect(() => {
    const el = body.current;
    if (!el || revealAt < 0) return;
    const top = Math.max(0, revealAt * rowHeight - Math.max(0, el.clientHeight - rowHeight) / 2);
    el.scrollTop = top;
    setScrollTop(top);
  }, [revealAt, rowHeight]);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN_ROWS);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN_ROWS);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const file = items[i]!;
    const isSelected = selected.has(file.id);
    rows.push(
      <div
        key={file.id}
        role="row"
        aria-rowindex={i + 2}
        aria-selected={isSelected}
        className="ft-row"
        data-testid="file-row"
        data-row-key={file.id}
        style={{ top: i * rowHeight, height: rowHeight }}
        onClick={(e) => onRowClick(file, e)}
        onContextMenu={() => onRowContextMenu(file)}
        onDoubleClick={() => onActivate(file)}
      >
        <div role="cell" className="ft-td ft-check" style={{ width: SELECTION_WIDTH }} onClick={(e) => e.stopPropagation()}>
          <Checkbox aria-label={`选择 ${file.name}`} checked={isSelected} onChange={(e) => onToggle(file, e.target.checked)} />
        </div>
        {columns.map((c) => (
          <div key={c.key} role="cell" className="ft-td" style={columnStyle(c, nameMinWidth)}>
            {c.render(file)}
          </div>
        ))}
      </div>,
    );
  }
  return (
    <div role="rowgroup" ref={body} className="ft-body" style={{ minWidth: minTableWidth }} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      {items.length > 0 ? (
        <div role="presentation" style={{ height: items.length * rowHeight, position: 'relative' }}>
          {rows}
        </div>
      ) : (
        // A table group holds rows only (ARIA): the empty state is a row too.
        <div role="row" aria-rowindex={2}>
          <div role="cell" className="ft-empty">
            {emptyText}
          </div>
        </div>
      )}
    </div>
  );
});
