import { CloseOutlined } from '@ant-design/icons';
import { Button, Input, Modal, Segmented, Space, Tag } from 'antd';
import { useState } from 'react';
import type { OrgUser } from '../../common/api/org-types';
import { useCurrentUser } from '../lib/current-user';
import { useOrgTree, usePeople } from '../lib/data/org';
import { usePhone } from '../lib/use-phone';
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
 * search on the right, what is chosen as tags on top. A tap anywhere on a person's row picks them;
 * locked accounts are marked. On a phone it is a full-screen sheet: the search on top, the list
 * taking the height, the tree one switch away (issue 44). Reads through the data layer (src/lib/data/org).
 */
export function OrgPicker(props: {
  open: boolean;
  title?: string;
  /** Allow choosing departments, not only people. */
  departments?: boolean;
  /** At most one person (e.g. a department manager). */
  single?: boolean;
  /** Leave the caller out where picking oneself makes no sense (share recipients, group members). */
  excludeSelf?: boolean;
  /** Other people who make no sense here (e.g. the account whose files are handed over). */
  exclude?: readonly string[];
  /**
   * Something must be picked: 确定 stays disabled while nothing is, with this sentence beside it
   * saying why (a single-person picker never turns an empty 确定 into a silent "clear").
   */
  required?: string;
  initial?: OrgSelection;
  onCancel: () => void;
  onOk: (selection: OrgSelection) => void;
}) {
  const phone = usePhone();
  const selfId = useCurrentUser()?.id ?? null;
  const tree = useOrgTree();
  const [selection, setSelection] = useState<OrgSelection>(props.initial ?? EMPTY_SELECTION);
  const [deptId, setDeptId] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [treeKeyword, setTreeKeyword] = useState('');
  const [scope, setScope] = useState<'sub' | 'direct'>('sub');
  // Phones show one pane at a time: the people (default) or the department tree.
  const [pane, setPane] = useState<'people' | 'tree'>('people');
  const people = usePeople({ departmentId: keyword ? undefined : deptId ?? undefined, direct: scope === 'direct', keyword }, props.open);
  const left = new Set(props.exclude ?? []);
  if (props.excludeSelf && selfId) left.add(selfId);
  const shown = left.size > 0 ? people.items.filter((p) => !left.has(p.id)) : people.items;
  const empty = selection.users.length + selection.departments.length === 0;
  const checkedUsers = new Set(selection.users.map((u) => u.id));
  const checkedDepts = new Set(selection.departments.map((d) => d.id));
  const chosenDept = deptId && tree.index ? tree.index.byId.get(deptId) : undefined;

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

  const search = (
    <Input.Search
      allowClear
      placeholder="搜索账号、昵称或手机号"
      onSearch={(v) => {
        setKeyword(v);
        setPane('people');
      }}
      style={{ width: phone ? '100%' : 280 }}
      data-testid="org-picker-search"
    />
  );
  const scopeSwitch = (
    <Segmented
      value={scope}
      onChange={(v) => setScope(v as 'sub' | 'direct')}
      options={[
        { value: 'sub', label: '含下级部门' },
        { value: 'direct', label: '仅本部门' },
      ]}
    />
  );
  const treePane = (
    <div style={{ width: phone ? '100%' : 300, flex: phone ? 1 : 'none', minHeight: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Input.Search allowClear placeholder="搜索部门" onChange={(e) => setTreeKeyword(e.target.value)} />
      {tree.index ? (
        <DepartmentTree
          index={tree.index}
          keyword={treeKeyword}
          selectedId={deptId}
          onSelect={(d) => {
            setDeptId(d.id);
            setKeyword('');
            setPane('people');
          }}
          checked={props.departments ? checkedDepts : undefined}
          onCheck={props.departments ? toggleDepartment : undefined}
          testId="org-picker-tree"
          height={phone ? '100%' : undefined}
        />
      ) : null}
    </div>
  );
  const peopleList = (
    <PeopleList
      people={shown}
      index={tree.index}
      loading={people.isPending}
      onNearEnd={() => {
        if (people.hasNextPage && !people.isFetchingNextPage) void people.fetchNextPage();
      }}
      checked={checkedUsers}
      onCheck={toggleUser}
      compact={phone}
      testId="org-picker-people"
      height={phone ? '100%' : undefined}
    />
  );
  const selected = (
    <div style={{ minHeight: 32, marginBottom: 8, maxHeight: phone ? 88 : undefined, overflowY: 'auto', flex: 'none' }} data-testid="org-picker-selected">
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
      {empty ? <span style={{ color: '#999' }}>尚未选择</span> : null}
    </div>
  );

  return (
    <Modal
      open={props.open}
      title={props.title ?? '选择人员'}
      width={phone ? '100%' : 860}
      okText="确定"
      cancelText="取消"
      onCancel={props.onCancel}
      onOk={() => props.onOk(selection)}
      okButtonProps={{ disabled: Boolean(props.required) && empty }}
      footer={(_, { OkBtn, CancelBtn }) => (
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          {props.required && empty ? (
            <span style={{ color: 'rgba(0,0,0,0.6)' }} data-testid="org-picker-required">
              {props.required}
            </span>
          ) : null}
          <CancelBtn />
          <OkBtn />
        </Space>
      )}
      destroyOnHidden
      data-testid="org-picker"
      // A phone gets the whole screen: no margins, the body stretching between header and footer.
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0, padding: 0 } : undefined}
      styles={
        phone
          ? {
              container: { height: '100dvh', display: 'flex', flexDirection: 'column', borderRadius: 0, padding: '12px 12px' },
              body: { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' },
            }
          : undefined
      }
    >
      {phone ? (
        <div style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 8 }}>
          {search}
          {selected}
          <Space wrap size={8} style={{ flex: 'none' }}>
            <Button size="small" onClick={() => setPane(pane === 'tree' ? 'people' : 'tree')} data-testid="org-picker-pane">
              {pane === 'tree' ? '返回人员' : props.departments ? '按部门选择' : '按部门查找'}
            </Button>
            {chosenDept && pane === 'people' && !keyword ? (
              <Tag closable onClose={() => setDeptId(null)} style={{ marginInlineEnd: 0 }}>
                {chosenDept.name}
              </Tag>
            ) : null}
            {pane === 'people' && chosenDept && !keyword ? scopeSwitch : null}
          </Space>
          <div style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>{pane === 'tree' ? treePane : peopleList}</div>
        </div>
      ) : (
        <>
          {selected}
          <div style={{ display: 'flex', gap: 12, height: 420 }}>
            {treePane}
            <div style={{ flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minWidth: 0 }}>
              <Space>
                {search}
                {scopeSwitch}
              </Space>
              {peopleList}
            </div>
          </div>
        </>
      )}
    </Modal>
  );
}
