import { Button, Checkbox } from 'antd';
import { memo, useMemo, useRef, useState, type CSSProperties, type MutableRefObject, type ReactNode } from 'react';
import type { FileEntry, FileSortField, SearchHit } from '../../../../common/api/types';
import { formatDateTime } from '../../../../common/format/date';
import { formatSize } from '../../../../common/format/size';
import { displayKindOf } from '../../../components/file-kind-look';
import { FileKindIcon } from '../../../components/FileKindIcon';
import { useElementSize } from '../../../lib/use-element-size';
import { TOUCH_TARGET_PX, usePhone } from '../../../lib/use-phone';
import './file-table.css';
import { FileStateTags } from './FileStateTags';
import { ContextMenuArea, itemDomId, MoreButton, useLatest, useScrollCursorIntoView, type FileViewProps } from './file-view-parts';
import type { ViewLayout } from './keyboard-nav';
import { nextSort, type SortState } from '../listing/sort-state';
import { useInfiniteScroll } from './use-infinite-scroll';
import type { ItemHandlers } from './use-list-selection';

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

export interface FileTableProps extends FileViewProps {
  /** Null = this listing cannot be sorted by the server (or the user may not sort). */
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  /** 共享文件 at the top: who shared each entry, and when. */
  showSharer?: boolean;
  /** 群组空间 and 公共空间: who uploaded each entry. */
  showOwner?: boolean;
}

interface Column {
  key: string;
  title: string;
  /** Null: the name column, which takes what the others leave. */
  width: number | null;
  sortField?: FileSortField;
  render: (file: FileEntry) => ReactNode;
}

/**
 * The file list: a virtualised table (only the rows in view are in the DOM, so a 100k-entry folder
 * scrolls smoothly), loading the next keyset page within 100 px of the bottom, server-side sort on the
 * column headers, checkboxes for multi-select, and a right-click menu that acts on the row under the
 * cursor (selecting it first when it was not selected). It is an ARIA grid: focusable, the keyboard
 * cursor its active descendant (the keys themselves are FileBrowser's).
 *
 * Drawn here rather than with antd's Table: rows have one height, so the virtualisation is a few lines,
 * and antd's Table brought its filters (Tree, Radio), pagination (Select) and per-render bookkeeping to
 * the first screen after login — about a sixth of its JavaScript.
 */
export function FileTable({ mode, pages, empty: emptyState, selectedIds, cursorId, freshId, handlers, sort, onSort, contextMenu, onDownload, downloadBlocked, layoutRef, showSharer = false, showOwner = false }: FileTableProps) {
  const box = useRef<HTMLDivElement>(null);
  useInfiniteScroll(box, pages.loadMore, pages.hasMore, pages.items.length);

  const latest = useLatest({ handlers, onSort, onDownload });
  const canDownload = onDownload !== null;
  const phone = usePhone();
  const moreButton = (file: FileEntry, style?: CSSProperties) => <MoreButton file={file} handlers={latest} style={style} />;

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
            latest.current.handlers.activate(file);
          }}
          onDoubleClick={(e) => e.stopPropagation()}
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
              <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.58)', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="file-meta">
                {/* In 回收站 where it came from leads (what 还原 restores to), before the time and size. */}
                {mode === 'recycle' && file.origin ? (
                  <>
                    原位置 <OriginName origin={file.origin} />
                    {' · '}
                  </>
                ) : null}
                {mode === 'recycle' ? null : file.isDir ? '' : `${formatSize(file.size)} · `}
                {formatDateTime(mode === 'recycle' && file.deletedAt ? file.deletedAt : file.updatedAt)}
                {mode === 'recycle' && !file.isDir ? ` · ${formatSize(file.size)}` : ''}
                {showOwner && file.owner?.nickName ? (
                  <>
                    {' · '}
                    <span data-testid="file-owner">{file.owner.nickName}</span>
                  </>
                ) : null}
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
    if (showOwner) cols.push({ key: 'owner', title: '上传者', width: 120, render: (file) => <OwnerName file={file} /> });
    cols.push({ key: 'size', title: '大小', width: 120, ...sortable('size'), render: (file) => (file.isDir ? '-' : formatSize(file.size)) });
    if (mode === 'recycle') {
      cols.push(
        {
          key: 'origin',
          title: '原位置',
          width: 200,
          // A folder deleted (or purged) since: 还原 recreates it; its old path stays in the tooltip.
          render: (file) => (file.origin ? <OriginName origin={file.origin} /> : '-'),
        },
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
              disabled={downloadBlocked(file) !== null}
              title={downloadBlocked(file) ?? undefined}
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
  // eslint-disable-next-line react-hooks/exhaustive-deps -- moreButton reads refs only
  }, [mode, sort, canDownload, downloadBlocked, latest, phone, showSharer, showOwner]);

  // The name column takes what the fixed columns leave (CSS flex), so the table fits the box when it
  // can and scrolls sideways below this width. No JavaScript measuring: the first paint is final.
  const nameMinWidth = phone ? 160 : NAME_MIN_WIDTH;
  const minTableWidth = columns.reduce((sum, c) => sum + (c.width ?? 0), 0) + SELECTION_WIDTH + nameMinWidth;

  const items = pages.items;
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const allSelected = items.length > 0 && items.every((f) => selected.has(f.id));
  const someSelected = !allSelected && items.some((f) => selected.has(f.id));
  const empty = items.length === 0;

  const cursorIndex = cursorId === null ? -1 : items.findIndex((f) => f.id === cursorId);
  return (
    <div ref={box} style={{ flex: 1, minHeight: 0, overflow: 'hidden', display: 'flex', flexDirection: 'column' }} data-testid="file-table-box">
      <ContextMenuArea contextMenu={contextMenu} hasSelection={selectedIds.length > 0}>
        <div
          role="grid"
          aria-label="文件列表"
          aria-multiselectable
          aria-rowcount={items.length + 1}
          aria-activedescendant={cursorIndex >= 0 ? itemDomId(cursorId!) : undefined}
          tabIndex={0}
          className="ft-table"
          data-testid="file-table"
          data-file-list
          data-count={items.length}
        >
          <div role="rowgroup" className="ft-headgroup" style={{ minWidth: minTableWidth }}>
            <div role="row" aria-rowindex={1} className="ft-head" style={{ height: HEADER_HEIGHT }}>
              <div role="columnheader" className="ft-th ft-check" style={{ width: SELECTION_WIDTH }}>
                <Checkbox
                  aria-label="全选"
                  checked={allSelected}
                  indeterminate={someSelected}
                  disabled={empty}
                  onChange={(e) => latest.current.handlers.selectAll(e.target.checked)}
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
            cursorId={cursorId}
            cursorIndex={cursorIndex}
            freshId={freshId}
            emptyText={emptyState}
            handlers={handlers}
            layoutRef={layoutRef}
          />
        </div>
      </ContextMenuArea>
      <div style={{ height: FOOTER_HEIGHT, lineHeight: `${FOOTER_HEIGHT}px`, padding: '0 8px', color: 'rgba(0,0,0,0.6)' }} data-testid="file-table-footer">
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
  cursorId: string | null;
  cursorIndex: number;
  freshId: string | null;
  emptyText: ReactNode;
  handlers: ItemHandlers;
  layoutRef: MutableRefObject<ViewLayout>;
}

/** Who uploaded an entry of a space (the list answer's owner), '-' when the answer did not say. */
/** Where a deleted entry was; a folder deleted (or purged) since says so, its old path in the tooltip. */
function OriginName({ origin }: { origin: NonNullable<FileEntry['origin']> }) {
  return (
    <span title={origin.path} data-testid="file-origin" data-gone={origin.gone || undefined} style={{ overflow: 'hidden', textOverflow: 'ellipsis', ...(origin.gone ? { color: 'rgba(0,0,0,0.45)' } : {}) }}>
      {origin.gone ? '已删除的文件夹' : origin.path}
    </span>
  );
}

export function OwnerName({ file }: { file: FileEntry }) {
  const name = file.owner?.nickName ?? '';
  return (
    <span data-testid="file-owner" title={name} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
      {name || '-'}
    </span>
  );
}

/** The scrolling body: only the rows in view (and OVERSCAN_ROWS around them) are rendered. */
const EntryRows = memo(function EntryRows({ items, columns, nameMinWidth, minTableWidth, rowHeight, selected, cursorId, cursorIndex, freshId, emptyText, handlers, layoutRef }: EntryRowsProps) {
  const body = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useElementSize(body, viewportFallback()).height;
  layoutRef.current = { columns: 1, pageRows: Math.max(1, Math.floor(viewport / rowHeight) - 1) };
  useScrollCursorIntoView(body, cursorIndex, rowHeight, cursorId);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN_ROWS);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewport) / rowHeight) + OVERSCAN_ROWS);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const file = items[i]!;
    const isSelected = selected.has(file.id);
    rows.push(
      <div
        key={file.id}
        id={itemDomId(file.id)}
        role="row"
        aria-rowindex={i + 2}
        aria-selected={isSelected}
        className="ft-row"
        data-testid="file-row"
        data-row-key={file.id}
        data-cursor={file.id === cursorId || undefined}
        data-fresh={file.id === freshId || undefined}
        style={{ top: i * rowHeight, height: rowHeight }}
        onClick={(e) => handlers.click(file, e)}
        onContextMenu={() => handlers.contextMenu(file)}
        onDoubleClick={() => handlers.activate(file)}
      >
        <div role="gridcell" className="ft-td ft-check" style={{ width: SELECTION_WIDTH }} onClick={(e) => e.stopPropagation()}>
          <Checkbox aria-label={`选择 ${file.name}`} checked={isSelected} onChange={(e) => handlers.toggle(file, e.target.checked)} />
        </div>
        {columns.map((c) => (
          <div key={c.key} role="gridcell" className="ft-td" style={columnStyle(c, nameMinWidth)}>
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
          <div role="gridcell" className="ft-empty">
            {emptyText}
          </div>
        </div>
      )}
    </div>
  );
});
