import { CaretDownOutlined, CaretRightOutlined } from '@ant-design/icons';
import { Checkbox, Empty } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { DepartmentNode } from '../../common/api/org-types';
import { visibleRows, type DepartmentIndex } from '../../common/org/tree';
import { VirtualRows } from './VirtualRows';

const ROW = 32;

/**
 * The tenant's department tree, virtualised (2,000 departments keep ~30 rows in the DOM): expand and
 * collapse, select one, optionally tick several (the picker), and a keyword that shows every match
 * with its ancestors. Used by 通讯录, 部门管理, 用户管理's filter and the people picker.
 */
export function DepartmentTree(props: {
  index: DepartmentIndex;
  selectedId?: string | null;
  onSelect?: (node: DepartmentNode) => void;
  keyword?: string;
  checked?: ReadonlySet<string>;
  onCheck?: (node: DepartmentNode, checked: boolean) => void;
  extra?: (node: DepartmentNode) => ReactNode;
  testId?: string;
  height?: number | string;
}) {
  const { index, keyword = '' } = props;
  // Top-level departments start open: the first screen shows the organisation's first two levels.
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set((index.children.get('') ?? []).map((d) => d.id)));
  const rows = useMemo(() => visibleRows(index, expanded, keyword), [index, expanded, keyword]);
  // A selection made elsewhere (a department just created or moved, a link) is revealed once it is
  // in the tree: its parents open and the list scrolls to it. What the user expanded stays expanded.
  const revealed = useRef<string | null>(null);
  const [reveal, setReveal] = useState<{ row: number } | null>(null);
  const selectedId = props.selectedId ?? null;
  useEffect(() => {
    if (!selectedId || revealed.current === selectedId || !index.byId.has(selectedId)) return;
    revealed.current = selectedId;
    const next = new Set(expanded);
    for (let at = index.byId.get(selectedId)?.parentId; at; at = index.byId.get(at)?.parentId ?? null) next.add(at);
    if (next.size !== expanded.size) setExpanded(next);
    const row = visibleRows(index, next, keyword).findIndex((r) => r.node.id === selectedId);
    if (row >= 0) setReveal({ row });
  }, [selectedId, index, expanded, keyword]);
  const toggle = (id: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <VirtualRows
      testId={props.testId ?? 'department-tree'}
      role="tree"
      label="部门"
      count={rows.length}
      rowHeight={ROW}
      reveal={reveal}
      style={{ height: props.height }}
      empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={keyword ? '没有匹配的部门' : '暂无部门'} />}
      renderRow={(i, style) => {
        const { node, depth, hasChildren, expanded: open } = rows[i]!;
        const selected = props.selectedId === node.id;
        return (
          <div
            key={node.id}
            role="treeitem"
            aria-level={depth + 1}
            aria-selected={selected}
            aria-expanded={hasChildren ? open : undefined}
            tabIndex={0}
            data-testid={`dept-${node.name}`}
            onClick={() => props.onSelect?.(node)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') props.onSelect?.(node);
              if (e.key === 'ArrowRight' && hasChildren && !open) toggle(node.id);
              if (e.key === 'ArrowLeft' && open) toggle(node.id);
            }}
            style={{
              ...style,
              display: 'flex',
              alignItems: 'center',
              gap: 6,
              paddingLeft: 8 + depth * 18,
              paddingRight: 8,
              cursor: 'pointer',
              borderRadius: 6,
              background: selected ? 'var(--ant-color-primary-bg, #e6f4ff)' : undefined,
            }}
          >
            <span
              aria-hidden
              onClick={(e) => {
                e.stopPropagation();
                if (hasChildren) toggle(node.id);
              }}
              style={{ width: 14, display: 'inline-flex', color: '#888' }}
            >
              {hasChildren ? open ? <CaretDownOutlined /> : <CaretRightOutlined /> : null}
            </span>
            {props.onCheck ? (
              <Checkbox
                checked={props.checked?.has(node.id) ?? false}
                onClick={(e) => e.stopPropagation()}
                onChange={(e) => props.onCheck!(node, e.target.checked)}
                aria-label={`选择部门 ${node.name}`}
              />
            ) : null}
            <span style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: node.unassigned ? 'rgba(0,0,0,0.6)' : undefined }}>{node.name}</span>
            {props.extra?.(node)}
          </div>
        );
      }}
    />
  );
}
