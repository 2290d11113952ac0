import { Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { ActionLogEntry } from '../../../common/api/action-log';
import { actionLabel } from '../../../common/api/action-codes';
import { INFINITE_SCROLL_THRESHOLD_PX, INFINITE_SCROLL_THROTTLE_MS } from '../../../common/constants';
import { formatDateTime } from '../../../common/format/date';
import { throttle } from '../../lib/throttle';
import { useElementSize } from '../../lib/use-element-size';
import { clientText, operatorText, targetsText } from './labels';
import './action-log.css';

const ROW_HEIGHT = 44;
/** Rows rendered above and below the visible ones, so fast scrolling shows no gaps. */
const OVERSCAN = 8;
/** Until the body is measured (the observer reports after the first layout). */
const VIEWPORT_FALLBACK = { width: 0, height: 600 };

const COLUMNS = ['时间', '操作人', '操作', '对象', '结果', 'IP 地址', '客户端'];

function Row({ e, onOpen }: { e: ActionLogEntry; onOpen: (e: ActionLogEntry) => void }) {
  return (
    <div className="al-row" role="row" tabIndex={0} onClick={() => onOpen(e)} onKeyDown={(k) => k.key === 'Enter' && onOpen(e)} data-testid="action-log-row">
      <span role="cell">{formatDateTime(e.at)}</span>
      <span role="cell" title={operatorText(e)}>{operatorText(e)}</span>
      <span role="cell" title={e.action}>{actionLabel(e.action)}</span>
      <span role="cell" title={targetsText(e.targets)}>{targetsText(e.targets)}</span>
      <span role="cell">{e.outcome === 'ok' ? <Tag color="green">成功</Tag> : <Tag color="red" title={e.errorCode ?? ''}>被拒绝</Tag>}</span>
      <span role="cell" title={e.address}>{e.address || '-'}</span>
      <span role="cell" title={e.userAgent}>{clientText(e)}</span>
    </div>
  );
}

/**
 * The log as a virtual table: only the rows in view are in the DOM (a million-row log scrolls like a
 * short one), the next keyset page is asked for within 100 px of the bottom (throttled, spec §9),
 * and a first page that does not fill the view keeps loading.
 */
export function ActionLogTable({ items, hasMore, loadMore, onOpen, footer }: { items: ActionLogEntry[]; hasMore: boolean; loadMore: () => void; onOpen: (e: ActionLogEntry) => void; footer: React.ReactNode }) {
  const body = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useElementSize(body, VIEWPORT_FALLBACK).height;
  const more = useRef({ hasMore, loadMore });
  useEffect(() => {
    more.current = { hasMore, loadMore };
  });

  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const check = throttle(() => {
      if (more.current.hasMore && el.scrollHeight - el.scrollTop - el.clientHeight <= INFINITE_SCROLL_THRESHOLD_PX) more.current.loadMore();
    }, INFINITE_SCROLL_THROTTLE_MS);
    el.addEventListener('scroll', check, { passive: true });
    check();
    return () => {
      el.removeEventListener('scroll', check);
      check.cancel();
    };
  }, [items.length, hasMore]);

  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewport) / ROW_HEIGHT) + OVERSCAN);

  return (
    <div className="al-table" role="table" aria-label="操作日志" data-testid="action-log-table">
      <div className="al-row al-head" role="row">
        {COLUMNS.map((c) => (
          <span key={c} role="columnheader">
            {c}
          </span>
        ))}
      </div>
      <div ref={body} className="al-body" onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
        <div style={{ height: items.length * ROW_HEIGHT, position: 'relative' }}>
          <div style={{ position: 'absolute', top: first * ROW_HEIGHT, left: 0, right: 0 }}>
            {items.slice(first, last).map((e) => (
              <Row key={e.seq} e={e} onOpen={onOpen} />
            ))}
          </div>
        </div>
        {footer}
      </div>
    </div>
  );
}
