import { Avatar, Checkbox, Empty, Spin } from 'antd';
import type { OrgUser } from '../../common/api/org-types';
import { departmentPath, type DepartmentIndex } from '../../common/org/tree';
import { VirtualRows } from './VirtualRows';

const ROW = 52;

/**
 * People as members see them (nickname, account, department path, masked phone), virtualised, with
 * the next keyset page loaded near the bottom. Optional ticks for the picker.
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
}) {
  const { people, index } = props;
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
        return (
          <div
            key={p.id}
            role="listitem"
            data-testid={`person-${p.website}`}
            style={{ ...style, display: 'flex', alignItems: 'center', gap: 12, padding: '0 12px', borderBottom: '1px solid rgba(5,5,5,0.06)' }}
          >
            {props.onCheck ? (
              <Checkbox checked={props.checked?.has(p.id) ?? false} onChange={(e) => props.onCheck!(p, e.target.checked)} aria-label={`选择 ${p.nickName}`} />
            ) : null}
            <Avatar size={32} src={p.avatar || undefined}>
              {p.nickName.slice(0, 1)}
            </Avatar>
            <div style={{ flex: 1, minWidth: 0 }}>
              <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                <strong>{p.nickName}</strong> <span style={{ color: '#888' }}>{p.website}</span>
              </div>
              <div style={{ color: '#888', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                {index ? departmentPath(index, p.departmentId) : ''}
              </div>
            </div>
            <span style={{ color: '#555', fontVariantNumeric: 'tabular-nums' }} data-testid="person-phone">
              {p.phone || '-'}
            </span>
          </div>
        );
      }}
    />
  );
}
