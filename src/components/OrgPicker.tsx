import { CloseOutlined } from '@ant-design/icons';
import { Input, Modal, Segmented, Space, Tag } from 'antd';
import { useState } from 'react';
import type { OrgUser } from '../../common/api/org-types';
import { useOrgTree, usePeople } from '../lib/data/org';
import { DepartmentTree } from './DepartmentTree';
import { PeopleList } from './PeopleList';

/** What the picker hands back: people and/or whole departments. */
export interface OrgSelection {
  users: Array<Pick<OrgUser, 'id' | 'nickName' | 'website'>>;
  departments: Array<{ id: string; name: string }>;
}

export const EMPTY_SELECTION: OrgSelection = { users: [], departments: [] };

/**
 * The people/department picker (sharing, group members, approvers): the department tree on the left
 * (tick whole departments when `departments` is on), the people of the selected department or of a
 * search on the right, what is chosen as tags on top. Reads through the data layer (src/lib/data/org).
 */
export function OrgPicker(props: {
  open: boolean;
  title?: string;
  /** Allow choosing departments, not only people. */
  departments?: boolean;
  /** At most one person (e.g. a department manager). */
  single?: boolean;
  initial?: OrgSelection;
  onCancel: () => void;
  onOk: (selection: OrgSelection) => void;
}) {
  const tree = useOrgTree();
  const [selection, setSelection] = useState<OrgSelection>(props.initial ?? EMPTY_SELECTION);
  const [deptId, setDeptId] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [treeKeyword, setTreeKeyword] = useState('');
  const [scope, setScope] = useState<'sub' | 'direct'>('sub');
  const people = usePeople({ departmentId: keyword ? undefined : deptId ?? undefined, direct: scope === 'direct', keyword }, props.open);
  const checkedUsers = new Set(selection.users.map((u) => u.id));
  const checkedDepts = new Set(selection.departments.map((d) => d.id));

  const toggleUser = (p: OrgUser, on: boolean) =>
    setSelection((s) => ({
      ...s,
      users: on ? (props.single ? [p] : [...s.users.filter((u) => u.id !== p.id), { id: p.id, nickName: p.nickName, website: p.website }]) : s.users.filter((u) => u.id !== p.id),
    }));

  const toggleDepartment = (d: { id: string; name: string }, on: boolean) =>
    setSelection((s) => {
      const others = s.departments.filter((x) => x.id !== d.id);
      return { ...s, departments: on ? [...others, { id: d.id, name: d.name }] : others };
    });

  return (
    <Modal
      open={props.open}
      title={props.title ?? '选择人员'}
      width={860}
      okText="确定"
      cancelText="取消"
      onCancel={props.onCancel}
      onOk={() => props.onOk(selection)}
      destroyOnHidden
      data-testid="org-picker"
    >
      <div style={{ minHeight: 32, marginBottom: 8 }} data-testid="org-picker-selected">
        {selection.departments.map((d) => (
          <Tag key={d.id} color="blue" closable closeIcon={<CloseOutlined />} onClose={() => setSelection((s) => ({ ...s, departments: s.departments.filter((x) => x.id !== d.id) }))}>
            {d.name}（部门）
          </Tag>
        ))}
        {selection.users.map((u) => (
          <Tag key={u.id} closable onClose={() => setSelection((s) => ({ ...s, users: s.users.filter((x) => x.id !== u.id) }))}>
            {u.nickName}
          </Tag>
        ))}
        {selection.users.length + selection.departments.length === 0 ? <span style={{ color: '#999' }}>尚未选择</span> : null}
      </div>
      <div style={{ display: 'flex', gap: 12, height: 420 }}>
        <div style={{ width: 300, display: 'flex', flexDirection: 'column', gap: 8 }}>
          <Input.Search allowClear placeholder="搜索部门" onChange={(e) => setTreeKeyword(e.target.value)} />
          {tree.index ? (
            <DepartmentTree
              index={tree.index}
              keyword={treeKeyword}
              selectedId={deptId}
              onSelect={(d) => {
                setDeptId(d.id);
                setKeyword('');
              }}
              checked={props.departments ? checkedDepts : undefined}
              onCheck={props.departments ? toggleDepartment : undefined}
              testId="org-picker-tree"
            />
          ) : null}
        </div>
        <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minWidth: 0 }}>
          <Space>
            <Input.Search allowClear placeholder="搜索账号、昵称或手机号" onSearch={setKeyword} style={{ width: 280 }} data-testid="org-picker-search" />
            <Segmented
              value={scope}
              onChange={(v) => setScope(v as 'sub' | 'direct')}
              options={[
                { value: 'sub', label: '含下级部门' },
                { value: 'direct', label: '仅本部门' },
              ]}
            />
          </Space>
          <PeopleList
            people={people.items}
            index={tree.index}
            loading={people.isPending}
            onNearEnd={() => {
              if (people.hasNextPage && !people.isFetchingNextPage) void people.fetchNextPage();
            }}
            checked={checkedUsers}
            onCheck={toggleUser}
            testId="org-picker-people"
          />
        </div>
      </div>
    </Modal>
  );
}
