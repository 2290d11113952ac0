import { Avatar, Checkbox, Empty, Spin, Tag } from 'antd';
import type { OrgUser } from '../../common/api/org-types';
import { departmentPath, type DepartmentIndex } from '../../common/org/tree';
import { VirtualRows } from './VirtualRows';

const ROW = 52;

/**
 * People as members see them (nickname, account, department path, masked phone), virtualised, with
 * the next keyset page loaded near the bottom. Optional ticks for the picker, where a click anywhere on
 * the row ticks (the checkbox is only its sign). Locked accounts carry 锁定.
 */
export function PeopleList(props: {
  people: OrgUser[];
  index: DepartmentIndex | null;
  loading: boolean;
  onNearEnd: () => void;
  checked?: ReadonlySet<string>;
  onCheck?: (person: OrgUser, checked: boolean) => void;
  testId?: string;
  height?: number | string;
  /** Narrow screens: the phone column gives its width to the name. */
  compact?: boolean;
}) {
  const { people, index, onCheck } = props;
  if (props.loading && people.length === 0) return <Spin style={{ margin: 24 }} />;
  return (
    <VirtualRows
      testId={props.testId ?? 'people-list'}
      role="list"
      label="人员"
      count={people.length}
      rowHeight={ROW}
      onNearEnd={props.onNearEnd}
      style={{ height: props.height }}
      empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的人员" />}
      renderRow={(i, style) => {
        const p = people[i]!;
        const checked = props.checked?.has(p.id) ?? false;
        return (
          <div
            key={p.id}
            role="listitem"
            data-testid={`person-${p.website}`}
            onClick={onCheck ? () => onCheck(p, !checked) : undefined}
            style={{
              ...style,
              display: 'flex',
              alignItems: 'center',
              gap: props.compact ? 8 : 12,
              padding: props.compact ? '0 4px' : '0 12px',
              borderBottom: '1px solid rgba(5,5,5,0.06)',
              cursor: onCheck ? 'pointer' : undefined,
              background: checked ? 'rgba(22,119,255,0.06)' : undefined,
            }}
          >
            {onCheck ? (
              // The row's click does the ticking; the box's own click must not tick twice.
              <span onClick={(e) => e.stopPropagation()}>
                <Checkbox checked={checked} onChange={(e) => onCheck(p, e.target.checked)} aria-label={`选择 ${p.nickName}`} />
              </span>
            ) : null}
            <Avatar size={32} src={p.avatar || undefined}>
              {p.nickName.slice(0, 1)}
            </Avatar>
            <div style={{ flex: 1, minWidth: 0 }}>
              {/* The name and account give way (an ellipsis) to 锁定, which always shows whole. */}
              <div style={{ display: 'flex', alignItems: 'center', minWidth: 0 }}>
                <span style={{ flex: '0 1 auto', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  <strong>{p.nickName}</strong> <span style={{ color: '#888' }}>{p.website}</span>
                </span>
                {p.locked ? (
                  <Tag style={{ marginInlineStart: 6, marginInlineEnd: 0, flex: 'none' }} data-testid="person-locked">
                    锁定
                  </Tag>
                ) : null}
              </div>
              <div style={{ color: '#888', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {index ? departmentPath(index, p.departmentId) : ''}
              </div>
            </div>
            {props.compact ? null : (
              <span style={{ color: '#555', fontVariantNumeric: 'tabular-nums' }} data-testid="person-phone">
                {p.phone || '-'}
              </span>
            )}
          </div>
        );
      }}
    />
  );
}
