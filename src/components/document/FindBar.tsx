import { CloseOutlined, DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, Input, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';

export interface FindStatus {
  state: 'idle' | 'pending' | 'found' | 'wrapped' | 'none';
  /** 1-based index of the highlighted hit (0: none), and the hits in the whole document so far. */
  current: number;
  total: number;
}

/** What the find bar says of the hits. */
export function findStatusText(query: string, status: FindStatus): string {
  if (!query.trim()) return '';
  if (status.state === 'none' || (status.state !== 'pending' && status.total === 0 && status.state !== 'idle')) return '无结果';
  if (status.total === 0) return '查找中…';
  return `${status.current} / ${status.total}${status.state === 'pending' ? '…' : ''}`;
}

/**
 * Find in the document: as you type (the hits highlighted on every page), Enter / Shift+Enter or the
 * arrows for the next / previous hit, Esc closes.
 */
export function FindBar({ query, status, onSearch, onClose }: { query: string; status: FindStatus; onSearch: (query: string, again: boolean, previous?: boolean) => void; onClose: () => void }) {
  const [text, setText] = useState(query);
  const input = useRef<HTMLInputElement | null>(null);
  useEffect(() => setText(query), [query]);
  useEffect(() => input.current?.focus(), []);
  const shown = findStatusText(text, status);
  return (
    <div role="search" style={{ display: 'flex', alignItems: 'center', gap: 4, flexWrap: 'nowrap' }} data-testid="document-find-bar">
      <Input
        ref={(el) => {
          input.current = el?.input ?? null;
        }}
        value={text}
        placeholder="在文档中查找"
        aria-label="在文档中查找"
        allowClear
        style={{ flex: 1, minWidth: 0 }}
        onChange={(e) => {
          setText(e.target.value);
          onSearch(e.target.value, false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') onSearch(text, true, e.shiftKey);
          else if (e.key === 'Escape') onClose();
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
        data-testid="document-find-input"
      />
      <span style={{ minWidth: 56, textAlign: 'center', color: 'rgba(0,0,0,0.6)', whiteSpace: 'nowrap' }} aria-live="polite" data-testid="document-find-count">
        {shown}
      </span>
      <Tooltip title="上一个（Shift+Enter）">
        <Button icon={<UpOutlined />} aria-label="上一个" disabled={!text.trim()} onClick={() => onSearch(text, true, true)} data-testid="document-find-prev" />
      </Tooltip>
      <Tooltip title="下一个（Enter）">
        <Button icon={<DownOutlined />} aria-label="下一个" disabled={!text.trim()} onClick={() => onSearch(text, true)} data-testid="document-find-next" />
      </Tooltip>
      <Tooltip title="关闭（Esc）">
        <Button icon={<CloseOutlined />} aria-label="关闭查找" onClick={onClose} data-testid="document-find-close" />
      </Tooltip>
    </div>
  );
}
