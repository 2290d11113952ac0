import { Checkbox } from 'antd';
import { memo, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import { thumbnailUrl } from '../../../../common/api/paths';
import type { FileEntry } from '../../../../common/api/types';
import { formatDateTime } from '../../../../common/format/date';
import { formatSize } from '../../../../common/format/size';
import { displayKindOf } from '../../../components/file-kind-look';
import { FileKindIcon } from '../../../components/FileKindIcon';
import { useElementSize } from '../../../lib/use-element-size';
import { usePhone } from '../../../lib/use-phone';
import './file-table.css';
import { FileStateTags } from './FileStateTags';
import { ContextMenuArea, itemDomId, MoreButton, useLatest, useScrollCursorIntoView, type FileViewProps } from './file-view-parts';
import type { ViewLayout } from './keyboard-nav';
import { useInfiniteScroll } from './use-infinite-scroll';
import type { ItemHandlers } from './use-list-selection';

/** Tiles are at least this wide (three across a phone); the row's spare width is shared among them. */
const TILE_MIN_WIDTH = 132;
const PHONE_TILE_MIN_WIDTH = 100;
const TILE_HEIGHT = 180;
const GAP = 12;
const HEADER_HEIGHT = 40;
const FOOTER_HEIGHT = 32;
const OVERSCAN_ROWS = 2;

/**
 * The grid view: tiles with a thumbnail (pictures, from the server's WebP thumbnails, loaded as they
 * scroll into view) or the kind's icon, the name and a size or date line. Same selection, menus,
 * keyboard and infinite loading as the list (FileTable), virtualised by rows of tiles.
 */
export function FileGrid({ mode, pages, empty: emptyState, selectedIds, cursorId, freshId, handlers, contextMenu, layoutRef }: FileViewProps) {
  const box = useRef<HTMLDivElement>(null);
  useInfiniteScroll(box, pages.loadMore, pages.hasMore, pages.items.length);
  const items = pages.items;
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  const allSelected = items.length > 0 && items.every((f) => selected.has(f.id));
  const someSelected = !allSelected && items.some((f) => selected.has(f.id));
  const cursorIndex = cursorId === null ? -1 : items.findIndex((f) => f.id === cursorId);
  const empty = items.length === 0;
  return (
    <div ref={box} style={{ flex: 1, minHeight: 0, overflow: 'hidden', display: 'flex', flexDirection: 'column' }} data-testid="file-grid-box">
      <ContextMenuArea contextMenu={contextMenu} hasSelection={selectedIds.length > 0}>
        <div
          role="grid"
          aria-label="文件列表（缩略图）"
          aria-multiselectable
          aria-activedescendant={cursorIndex >= 0 ? itemDomId(cursorId!) : undefined}
          tabIndex={0}
          className="ft-table"
          data-testid="file-grid"
          data-file-list
          data-count={items.length}
        >
          <div role="rowgroup" className="ft-headgroup">
            <div role="row" className="ft-head fg-head" style={{ height: HEADER_HEIGHT }}>
              <div role="columnheader" className="ft-th">
                <Checkbox checked={allSelected} indeterminate={someSelected} disabled={empty} onChange={(e) => handlers.selectAll(e.target.checked)} data-testid="select-all">
                  全选
                </Checkbox>
              </div>
            </div>
          </div>
          <TileRows items={items} mode={mode} selected={selected} cursorId={cursorId} cursorIndex={cursorIndex} freshId={freshId} emptyText={emptyState} handlers={handlers} layoutRef={layoutRef} />
        </div>
      </ContextMenuArea>
      <div style={{ height: FOOTER_HEIGHT, lineHeight: `${FOOTER_HEIGHT}px`, padding: '0 8px', color: 'rgba(0,0,0,0.6)' }} data-testid="file-table-footer">
        {pages.loading ? '加载中…' : pages.hasMore ? '向下滚动加载更多' : empty ? '' : `共 ${items.length} 项`}
      </div>
    </div>
  );
}

interface TileRowsProps {
  items: FileEntry[];
  mode: FileViewProps['mode'];
  selected: ReadonlySet<string>;
  cursorId: string | null;
  cursorIndex: number;
  freshId: string | null;
  emptyText: ReactNode;
  handlers: ItemHandlers;
  layoutRef: MutableRefObject<ViewLayout>;
}

const TileRows = memo(function TileRows({ items, mode, selected, cursorId, cursorIndex, freshId, emptyText, handlers, layoutRef }: TileRowsProps) {
  const body = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const size = useElementSize(body, { width: 960, height: typeof window === 'undefined' ? 800 : window.innerHeight });
  const inner = Math.max(0, size.width - 2 * GAP);
  const phone = usePhone();
  const columns = Math.max(1, Math.floor((inner + GAP) / ((phone ? PHONE_TILE_MIN_WIDTH : TILE_MIN_WIDTH) + GAP)));
  const tileWidth = Math.floor((inner - (columns - 1) * GAP) / columns);
  const rowHeight = TILE_HEIGHT + GAP;
  layoutRef.current = { columns, pageRows: Math.max(1, Math.floor(size.height / rowHeight)) };
  useScrollCursorIntoView(body, cursorIndex < 0 ? -1 : Math.floor(cursorIndex / columns), rowHeight, cursorId);
  const rowCount = Math.ceil(items.length / columns);
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN_ROWS);
  const last = Math.min(rowCount, Math.ceil((scrollTop + size.height) / rowHeight) + OVERSCAN_ROWS);
  const latest = useLatest({ handlers });

  const rows: ReactNode[] = [];
  for (let r = first; r < last; r++) {
    const tiles: ReactNode[] = [];
    for (let i = r * columns; i < Math.min(items.length, (r + 1) * columns); i++) {
      const file = items[i]!;
      tiles.push(<Tile key={file.id} file={file} mode={mode} width={tileWidth} selected={selected.has(file.id)} cursor={file.id === cursorId} fresh={file.id === freshId} handlers={handlers} menuRef={latest} />);
    }
    rows.push(
      <div key={r} role="row" aria-rowindex={r + 2} className="fg-row" style={{ top: r * rowHeight + GAP, height: TILE_HEIGHT, gap: GAP, paddingInline: GAP }}>
        {tiles}
      </div>,
    );
  }
  return (
    <div role="rowgroup" ref={body} className="ft-body" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
      {items.length > 0 ? (
        <div role="presentation" style={{ height: rowCount * rowHeight + GAP, position: 'relative' }}>
          {rows}
        </div>
      ) : (
        <div role="row" aria-rowindex={2}>
          <div role="gridcell" className="ft-empty">
            {emptyText}
          </div>
        </div>
      )}
    </div>
  );
});

interface TileProps {
  file: FileEntry;
  mode: FileViewProps['mode'];
  width: number;
  selected: boolean;
  cursor: boolean;
  fresh: boolean;
  handlers: ItemHandlers;
  menuRef: MutableRefObject<{ handlers: ItemHandlers }>;
}

const Tile = memo(function Tile({ file, mode, width, selected, cursor, fresh, handlers, menuRef }: TileProps) {
  const meta = file.isDir ? formatDateTime(file.updatedAt) : formatSize(file.size);
  // In a space: whose entry it is (the list answer's owner).
  const owner = file.owner?.nickName ?? '';
  return (
    <div
      id={itemDomId(file.id)}
      role="gridcell"
      aria-selected={selected}
      className="fg-tile"
      data-testid="file-tile"
      data-row-key={file.id}
      data-cursor={cursor || undefined}
      data-fresh={fresh || undefined}
      style={{ width }}
      title={`${file.name}\n${file.isDir ? '' : `${formatSize(file.size)} · `}${formatDateTime(mode === 'recycle' && file.deletedAt ? file.deletedAt : file.updatedAt)}${owner ? `\n上传者：${owner}` : ''}`}
      onClick={(e) => handlers.click(file, e)}
      onContextMenu={() => handlers.contextMenu(file)}
      onDoubleClick={() => handlers.activate(file)}
    >
      <div className="fg-thumb">
        <Thumbnail file={file} />
      </div>
      <span className="fg-check" onClick={(e) => e.stopPropagation()}>
        <Checkbox aria-label={`选择 ${file.name}`} checked={selected} onChange={(e) => handlers.toggle(file, e.target.checked)} />
      </span>
      <span className="fg-more">
        <MoreButton file={file} handlers={menuRef} />
      </span>
      <a
        href="#"
        className="fg-name"
        data-testid="file-name"
        onClick={(e) => {
          e.preventDefault();
          e.stopPropagation();
          handlers.activate(file);
        }}
        onDoubleClick={(e) => e.stopPropagation()}
      >
        {file.name}
      </a>
      <span className="fg-meta">
        {meta}
        {owner && (
          <span data-testid="file-owner" title={`上传者：${owner}`}>
            {' · '}
            {owner}
          </span>
        )}
        <FileStateTags file={file} />
      </span>
    </div>
  );
});

/** A picture's server thumbnail (lazy, decoded off the main thread), else the kind's icon; a failed thumbnail falls back to the icon. */
function Thumbnail({ file }: { file: FileEntry }) {
  const [failed, setFailed] = useState(false);
  // Any raster picture has a server thumbnail (SVG never: it is not decoded).
  if (file.kind === 'picture' && !/\.svgz?$/i.test(file.name) && !failed) {
    return <img src={thumbnailUrl(file.id)} alt="" loading="lazy" decoding="async" draggable={false} onError={() => setFailed(true)} data-testid="file-thumbnail" />;
  }
  if (DOCUMENT_KINDS.has(file.kind) && !file.encrypted) return <DocumentThumbnail file={file} />;
  return <FileKindIcon kind={displayKindOf(file)} encrypted={file.encrypted} size={56} />;
}

/** Kinds whose first page the server draws as the thumbnail once their rendition exists (issue 41). */
const DOCUMENT_KINDS: ReadonlySet<FileEntry['kind']> = new Set(['pdf', 'word', 'excel', 'ppt']);

/**
 * A document's first page: the kind's icon until the server's thumbnail has loaded (none yet while the
 * rendition is made, none at all without LibreOffice), so there is never a broken picture.
 */
function DocumentThumbnail({ file }: { file: FileEntry }) {
  const [shown, setShown] = useState<'loading' | 'loaded' | 'none'>('loading');
  return (
    <>
      {shown !== 'loaded' && <FileKindIcon kind={displayKindOf(file)} encrypted={file.encrypted} size={56} />}
      {shown !== 'none' && (
        <img
          src={thumbnailUrl(file.id)}
          alt=""
          loading="lazy"
          decoding="async"
          draggable={false}
          onLoad={() => setShown('loaded')}
          onError={() => setShown('none')}
          style={shown === 'loaded' ? { background: '#fff', boxShadow: '0 0 0 1px rgba(0,0,0,0.08)' } : { position: 'absolute', width: 1, height: 1, opacity: 0 }}
          data-testid="file-thumbnail"
          data-thumbnail={shown}
        />
      )}
    </>
  );
}
