import { MoreOutlined } from '@ant-design/icons';
import { Button, Dropdown, Table, type MenuProps, type TableColumnsType } from 'antd';
import { useRef, useState } from 'react';
import type { FileEntry, FileSortField, SearchHit } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import { displayKindOf } from '../../components/file-kind-look';
import { FileKindIcon } from '../../components/FileKindIcon';
import { useElementSize } from '../../lib/use-element-size';
import { ENGINE_DOWNLOAD_THRESHOLD } from './download-entries';
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
  /** Rows that are group-space roots (drawn as group folders). */
  isSpaceRoot?: (file: FileEntry) => boolean;
  /** The row's 下载 button (hidden when the user may not download). */
  onDownload: ((file: FileEntry) => void) | null;
}

/**
 * The file list: a virtualised antd table (only the visible rows are in the DOM, so a 100k-entry
 * folder scrolls smoothly), loading the next keyset page within 100 px of the bottom, server-side
 * sort on the column headers, checkboxes for multi-select, and a right-click menu that acts on the
 * row under the cursor (selecting it first when it was not selected).
 */
export function FileTable({ mode, pages, selectedIds, onSelect, onActivate, sort, onSort, contextMenu, isSpaceRoot, onDownload }: FileTableProps) {
  const box = useRef<HTMLDivElement>(null);
  const size = useElementSize(box, FALLBACK_SIZE);
  const [menuOpen, setMenuOpen] = useState(false);
  useInfiniteScroll(box, pages.loadMore, pages.hasMore, pages.items.length);

  // Rebuilt on each render: cheap, and only the visible rows render cells.
  const columns = ((): TableColumnsType<FileEntry> => {
    const sortable = (key: FileSortField) =>
      sort && mode === 'folder' ? { sorter: true, sortOrder: tableOrderOf(sort, key), sortDirections: ['ascend' as const, 'descend' as const] } : {};
    const cols: TableColumnsType<FileEntry> = [
      {
        title: '名称',
        key: 'name',
        width: NAME_MIN_WIDTH, // widened below to fill the box
        ...sortable('name'),
        render: (_: unknown, file) => (
          <span style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
            <FileKindIcon kind={displayKindOf(file, isSpaceRoot?.(file) ?? false)} encrypted={file.encrypted} />
            <a
              href="#"
              onClick={(e) => {
                e.preventDefault();
                e.stopPropagation();
                onActivate(file);
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
          {onDownload && !file.isDir && mode !== 'recycle' && (
            <Button
              type="link"
              size="small"
              onClick={(e) => {
                e.stopPropagation();
                onDownload(file);
              }}
              data-testid={`download-${file.id}`}
              data-via={file.size > ENGINE_DOWNLOAD_THRESHOLD ? 'engine' : 'link'}
            >
              下载
            </Button>
          )}
          <Dropdown menu={contextMenu} trigger={['click']}>
            <Button
              type="text"
              size="small"
              icon={<MoreOutlined />}
              aria-label="更多操作"
              data-testid={`more-${file.id}`}
              onClick={(e) => {
                e.stopPropagation();
                if (!selectedIds.includes(file.id)) onSelect([file.id]);
              }}
            />
          </Dropdown>
        </span>
      ),
    });
    // The name column takes what the fixed columns leave, so the table fits the box when it can.
    const fixed = cols.slice(1).reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 0);
    cols[0] = { ...cols[0], width: Math.max(NAME_MIN_WIDTH, size.width - fixed - SELECTION_WIDTH - SCROLLBAR_ALLOWANCE) };
    return cols;
  })();

  const scrollX = columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 0), 0) + SELECTION_WIDTH;
  // Header (~47 px) and footer (~40 px) sit inside the box too.
  const scrollY = Math.max(120, size.height - 47 - 40);

  return (
    <div ref={box} style={{ flex: 1, minHeight: 0, overflow: 'hidden' }} data-testid="file-table-box">
      <Dropdown menu={{ ...contextMenu, onClick: (info) => { setMenuOpen(false); contextMenu.onClick?.(info); } }} trigger={['contextMenu']} open={menuOpen && selectedIds.length > 0} onOpenChange={setMenuOpen}>
        <div>
          <Table<FileEntry>
            data-testid="file-table"
            data-count={pages.items.length}
            virtual
            rowKey="id"
            columns={columns}
            dataSource={pages.items}
            loading={pages.loading && pages.items.length === 0}
            pagination={false}
            size="middle"
            scroll={{ x: scrollX, y: scrollY }}
            rowSelection={{
              selectedRowKeys: selectedIds,
              onChange: (keys) => onSelect(keys.map(String)),
              columnWidth: 40,
            }}
            onChange={(_p, _f, sorter) => {
              if (Array.isArray(sorter) || !sort) return;
              onSort(sortFromTable(sorter.columnKey, sorter.order));
            }}
            onRow={(file) => ({
              // A click selects the row alone; Ctrl/⌘-click adds or removes it.
              onClick: (e) => {
                if (e.ctrlKey || e.metaKey) onSelect(selectedIds.includes(file.id) ? selectedIds.filter((id) => id !== file.id) : [...selectedIds, file.id]);
                else onSelect([file.id]);
              },
              onContextMenu: () => {
                if (!selectedIds.includes(file.id)) onSelect([file.id]);
              },
              onDoubleClick: () => onActivate(file),
            })}
            locale={{ emptyText: pages.loading ? ' ' : '暂无文件' }}
            footer={() => (pages.loading ? '加载中…' : pages.hasMore ? '向下滚动加载更多' : `共 ${pages.items.length} 项`)}
          />
        </div>
      </Dropdown>
    </div>
  );
}
