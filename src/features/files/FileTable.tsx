import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Table, type MenuProps, type TableColumnsType, type TableProps } from 'antd';
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { FileEntry, FileSortField, SearchHit } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { displayKindOf } from '../../components/file-kind-look';
import { FileKindIcon } from '../../components/FileKindIcon';
import { useElementSize } from '../../lib/use-element-size';
import { TOUCH_TARGET_PX, usePhone } from '../../lib/use-phone';
import type { BrowserMode } from './file-actions';
import { FileStateTags } from './FileStateTags';
import { sortFromTable, tableOrderOf, type SortState } from './sort-state';
import type { EntryPages } from './use-entry-pages';
import { useInfiniteScroll } from './use-infinite-scroll';

const FALLBACK_SIZE = { width: 900, height: 480 };
/** The checkbox column, and room for the vertical scrollbar. */
const SELECTION_WIDTH = 40;
const SCROLLBAR_ALLOWANCE = 16;
const NAME_MIN_WIDTH = 220;
/** Header and the footer line below the table. */
const HEADER_HEIGHT = 47;
const FOOTER_HEIGHT = 32;

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
 * The file list: a virtualised antd table (only the visible rows are in the DOM, so a 100k-entry
 * folder scrolls smoothly), loading the next keyset page within 100 px of the bottom, server-side
 * sort on the column headers, checkboxes for multi-select, and a right-click menu that acts on the
 * row under the cursor (selecting it first when it was not selected).
 *
 * Every prop handed to antd's Table is stable between renders unless what it shows changed, and the
 * table itself is memoised: the O(rows) work antd does per render (selection, row keys) runs when a
 * page arrives or the selection changes, not on every loading flag or parent render.
 */
export function FileTable({ mode, pages, selectedIds, onSelect, onActivate, sort, onSort, contextMenu, onDownload }: FileTableProps) {
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, FALLBACK_SIZE);
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
          e.currentTarget.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, clientX: r.left, clientY: r.bottom }));
        }}
      />
    ),
    [latest],
  );

  const columns = useMemo((): TableColumnsType<FileEntry> => {
    const sortable = (key: FileSortField) =>
      sort && mode === 'folder' ? { sorter: true, sortOrder: tableOrderOf(sort, key), sortDirections: ['ascend' as const, 'descend' as const] } : {};
    const cols: TableColumnsType<FileEntry> = [
      {
        title: '名称',
        key: 'name',
        ...sortable('name'),
        render: (_: unknown, file) => (
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
        ),
      },
    ];
    if (phone) {
      // One column and the ⋮ menu (every action, as on a wide screen); size and date under the name.
      const name = cols[0]!;
      const renderName = name.render!;
      cols[0] = {
        ...name,
        render: (value: unknown, file: FileEntry, index: number) => (
          <div style={{ minWidth: 0, minHeight: TOUCH_TARGET_PX, display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
            {renderName(value, file, index) as ReactNode}
            <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.58)' }} data-testid="file-meta">
              {file.isDir ? '' : `${formatSize(file.size)} · `}
              {formatDateTime(mode === 'recycle' && file.deletedAt ? file.deletedAt : file.updatedAt)}
            </span>
          </div>
        ),
      };
      cols.push({ title: '', key: 'actions', width: 56, render: (_: unknown, file) => moreButton(file, { width: TOUCH_TARGET_PX, height: TOUCH_TARGET_PX }) });
      cols[0] = { ...cols[0], width: Math.max(160, size.width - 56 - SELECTION_WIDTH) };
      return cols;
    }
    if (mode === 'search') {
      cols.push({
        title: '位置',
        key: 'path',
        width: 200,
        ellipsis: true,
        render: (_: unknown, file) => {
          const hit = file as SearchHit;
          return [hit.spaceName ?? '', ...(hit.path ?? [])].filter(Boolean).join(' / ') || '根目录';
        },
      });
    }
    cols.push({ title: '大小', key: 'size', width: 120, ...sortable('size'), render: (_: unknown, file) => (file.isDir ? '-' : formatSize(file.size)) });
    if (mode === 'recycle') {
      cols.push(
        { title: '删除时间', key: 'deletedAt', width: 150, render: (_: unknown, file) => (file.deletedAt ? formatDateTime(file.deletedAt) : '-') },
        { title: '自动清除时间', key: 'expiresAt', width: 150, render: (_: unknown, file) => (file.expiresAt ? formatDateTime(file.expiresAt) : '-') },
      );
    } else {
      cols.push({ title: '修改时间', key: 'updatedAt', width: 170, ...sortable('updatedAt'), render: (_: unknown, file) => formatDateTime(file.updatedAt) });
    }
    cols.push({
      title: '操作',
      key: 'actions',
      // the recycle bin has no 下载 button, only the menu
      width: mode === 'recycle' ? 56 : 110,
      render: (_: unknown, file) => (
        <span style={{ display: 'inline-flex', gap: 2 }}>
          {canDownload && !file.isDir && mode !== 'recycle' && (
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
    // The name column takes what the fixed columns leave, so the table fits the box when it can.
    const fixed = cols.slice(1).reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 0);
    cols[0] = { ...cols[0], width: Math.max(NAME_MIN_WIDTH, size.width - fixed - SELECTION_WIDTH - SCROLLBAR_ALLOWANCE) };
    return cols;
  }, [mode, sort, size.width, canDownload, latest, phone, moreButton]);

  const scroll = useMemo(() => {
    const x = columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 0) + SELECTION_WIDTH;
    return { x, y: Math.max(120, size.height - HEADER_HEIGHT - FOOTER_HEIGHT) };
  }, [columns, size.height]);

  const rowSelection = useMemo(
    (): TableProps<FileEntry>['rowSelection'] => ({
      selectedRowKeys: selectedIds,
      onChange: (keys) => latest.current.onSelect(keys.map(String)),
      columnWidth: SELECTION_WIDTH,
    }),
    [selectedIds, latest],
  );

  const onRow = useMemo(
    (): TableProps<FileEntry>['onRow'] => (file) => ({
      // A click selects the row alone; Ctrl/⌘-click adds or removes it.
      onClick: (e) => {
        const { selectedIds: chosen, onSelect: select } = latest.current;
        if (e.ctrlKey || e.metaKey) select(chosen.includes(file.id) ? chosen.filter((id) => id !== file.id) : [...chosen, file.id]);
        else select([file.id]);
      },
      onContextMenu: () => {
        const { selectedIds: chosen, onSelect: select } = latest.current;
        if (!chosen.includes(file.id)) select([file.id]);
      },
      onDoubleClick: () => latest.current.onActivate(file),
    }),
    [latest],
  );

  const onChange = useMemo(
    (): TableProps<FileEntry>['onChange'] => (_p, _f, sorter) => {
      if (Array.isArray(sorter) || !latest.current.sort) return;
      latest.current.onSort(sortFromTable(sorter.columnKey, sorter.order));
    },
    [latest],
  );

  const empty = pages.items.length === 0;
  const locale = useMemo(() => ({ emptyText: pages.loading ? ' ' : '暂无文件' }), [pages.loading]);

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
        <div>
          <EntryTable
            items={pages.items}
            columns={columns}
            scroll={scroll}
            rowSelection={rowSelection}
            onRow={onRow}
            onChange={onChange}
            locale={locale}
            loading={pages.loading && empty}
          />
        </div>
      </Dropdown>
      <div style={{ height: FOOTER_HEIGHT, lineHeight: `${FOOTER_HEIGHT}px`, padding: '0 8px', color: '#8c8c8c' }} data-testid="file-table-footer">
        {pages.loading ? '加载中…' : pages.hasMore ? '向下滚动加载更多' : empty ? '' : `共 ${pages.items.length} 项`}
      </div>
    </div>
  );
}

interface EntryTableProps {
  items: FileEntry[];
  columns: TableColumnsType<FileEntry>;
  scroll: { x: number; y: number };
  rowSelection: TableProps<FileEntry>['rowSelection'];
  onRow: TableProps<FileEntry>['onRow'];
  onChange: TableProps<FileEntry>['onChange'];
  locale: TableProps<FileEntry>['locale'];
  loading: boolean;
}

/** antd's virtual table; re-rendered only when one of its props really changed. */
const EntryTable = memo(function EntryTable({ items, columns, scroll, rowSelection, onRow, onChange, locale, loading }: EntryTableProps) {
  return (
    <Table<FileEntry>
      data-testid="file-table"
      data-count={items.length}
      virtual
      rowKey="id"
      columns={columns}
      dataSource={items}
      loading={loading}
      pagination={false}
      size="middle"
      scroll={scroll}
      rowSelection={rowSelection}
      onChange={onChange}
      onRow={onRow}
      locale={locale}
    />
  );
});
