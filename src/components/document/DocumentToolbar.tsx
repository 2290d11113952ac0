import { ColumnWidthOutlined, ExpandOutlined, LeftOutlined, RightOutlined, SearchOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { Button, InputNumber, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { percentOf, zoomIn, zoomOut, type Zoom } from './zoom';

/**
 * The document viewer's toolbar: the page shown of how many (type a number to go there), previous and
 * next page, zoom out / percentage / in, fit width, fit page, find. Wraps on a phone; every button has
 * its name for screen readers and its key in the tooltip.
 */
export function DocumentToolbar({ page, pages, scale, zoom, onPage, onZoom, onFind }: { page: number; pages: number; scale: number; zoom: Zoom; onPage: (page: number) => void; onZoom: (zoom: Zoom) => void; onFind: () => void }) {
  const [typed, setTyped] = useState<number | null>(page);
  useEffect(() => setTyped(page), [page]);
  return (
    <div role="toolbar" aria-label="文档工具栏" style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'center', gap: 4, rowGap: 6 }}>
      <Tooltip title="上一页（P）">
        <Button icon={<LeftOutlined />} aria-label="上一页" disabled={page <= 1} onClick={() => onPage(page - 1)} data-testid="document-prev-page" />
      </Tooltip>
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }} data-testid="document-page-indicator" data-page={page} data-pages={pages}>
        <InputNumber
          size="middle"
          min={1}
          max={pages}
          value={typed}
          controls={false}
          aria-label="页码"
          style={{ width: 56 }}
          onChange={(v) => setTyped(v)}
          onPressEnter={() => typed && onPage(Math.min(pages, Math.max(1, Math.floor(typed))))}
          onBlur={() => setTyped(page)}
          data-testid="document-page-input"
        />
        <span>/ {pages} 页</span>
      </span>
      <Tooltip title="下一页（N）">
        <Button icon={<RightOutlined />} aria-label="下一页" disabled={page >= pages} onClick={() => onPage(page + 1)} data-testid="document-next-page" />
      </Tooltip>
      <span style={{ width: 8 }} />
      <Tooltip title="缩小（-）">
        <Button icon={<ZoomOutOutlined />} aria-label="缩小" onClick={() => onZoom(zoomOut(scale))} data-testid="document-zoom-out" />
      </Tooltip>
      <span style={{ minWidth: 48, textAlign: 'center' }} aria-live="polite" data-testid="document-zoom-percent">
        {percentOf(scale)}
      </span>
      <Tooltip title="放大（+）">
        <Button icon={<ZoomInOutlined />} aria-label="放大" onClick={() => onZoom(zoomIn(scale))} data-testid="document-zoom-in" />
      </Tooltip>
      <Tooltip title="适应宽度（0）">
        <Button icon={<ColumnWidthOutlined />} aria-label="适应宽度" type={zoom === 'page-width' ? 'primary' : 'default'} ghost={zoom === 'page-width'} onClick={() => onZoom('page-width')} data-testid="document-fit-width" />
      </Tooltip>
      <Tooltip title="适应页面">
        <Button icon={<ExpandOutlined />} aria-label="适应页面" type={zoom === 'page-fit' ? 'primary' : 'default'} ghost={zoom === 'page-fit'} onClick={() => onZoom('page-fit')} data-testid="document-fit-page" />
      </Tooltip>
      <Tooltip title="查找（Ctrl+F）">
        <Button icon={<SearchOutlined />} aria-label="查找" onClick={onFind} data-testid="document-find" />
      </Tooltip>
    </div>
  );
}
