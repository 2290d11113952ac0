import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, DragOutlined, EditOutlined, PlusOutlined, UserDeleteOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Flex, Input, Popconfirm, Select, Space, Tooltip } from 'antd';
import { useState } from 'react';
import type { DepartmentNode } from '../../../common/api/types';
import { PHONE_MASK_RULES, type PhoneMaskRule } from '../../../common/org/phone-mask';
import { departmentPath, DISPLAY_PATH_SEPARATOR, subtreeMembers, type DepartmentIndex } from '../../../common/org/tree';
import { DepartmentTree } from '../../components/DepartmentTree';
import { OFFLINE_REASON, OnlineOnly } from '../../components/OnlineOnly';
import { OrgPicker } from '../../components/OrgPicker';
import { useOnline } from '../../lib/data/online';
import { PeopleList } from '../../components/PeopleList';
import { Permission } from '../../lib/button-permissions';
import { ORG_KEYS, useOrgTree, usePeople } from '../../lib/data/org';
import { useFeedback } from '../../lib/feedback/feedback';
import { usePhone } from '../../lib/use-phone';
import { MoveDialog, NameDialog } from './DepartmentDialogs';
import { createDepartment, deleteDepartment, moveDepartment, setPhoneMask, updateDepartment } from './departments-api';

const MANAGE = 'system:department';

type Dialog = { kind: 'create'; parentId: string | null } | { kind: 'rename'; node: DepartmentNode } | null;

/** The dialog says where the new department goes: 在「研发部」下新建部门, or 新建顶层部门. */
function dialogTitle(dialog: Dialog, index: DepartmentIndex | null): string {
  if (dialog?.kind === 'rename') return `重命名「${dialog.node.name}」`;
  const parent = dialog?.parentId ? index?.byId.get(dialog.parentId) : undefined;
  return parent ? `在「${parent.name}」下新建部门` : '新建顶层部门';
}

/**
 * 部门管理 (/main/system/department): the tenant's department tree (virtualised, searchable), and for
 * the selected department its path, manager and members; create, rename, set the manager, order among
 * siblings, move and delete (the server refuses with the reason: people or sub-departments left, a
 * move under itself). Also the address list's phone rule.
 */
export function DepartmentPage() {
  const { message } = useFeedback();
  const client = useQueryClient();
  const online = useOnline();
  const phone = usePhone();
  const tree = useOrgTree();
  const index = tree.index;
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [moving, setMoving] = useState<DepartmentNode | null>(null);
  const [pickManager, setPickManager] = useState(false);
  const selected = (selectedId && index?.byId.get(selectedId)) || null;
  const members = usePeople({ departmentId: selected?.id, direct: true }, selected !== null);

  const reload = () => void client.invalidateQueries({ queryKey: ORG_KEYS.all });
  async function run<T>(action: () => Promise<T>, done: string): Promise<T | undefined> {
    try {
      const value = await action();
      message.success(done);
      return value;
    } catch {
      return undefined; // the API client has shown the server's reason
    } finally {
      reload();
    }
  }

  const siblings = selected && index ? index.children.get(selected.parentId ?? '')!.filter((d) => !d.unassigned) : [];
  const at = selected ? siblings.findIndex((d) => d.id === selected.id) : -1;

  const phoneMask = (
    <Space>
      通讯录手机号显示
      <Select<PhoneMaskRule>
        size="small"
        value={tree.data?.phoneMask}
        disabled={!online}
        style={{ width: 170 }}
        options={PHONE_MASK_RULES.map((r) => ({ value: r.value, label: r.example ? `${r.label}（${r.example}）` : r.label }))}
        onChange={(rule) => void run(() => setPhoneMask(rule), '已更新通讯录手机号显示规则')}
        data-testid="phone-mask"
      />
    </Space>
  );

  return (
    // A phone stacks the tree (a third of the screen) above the department, each the screen's width.
    <Flex gap={phone ? 8 : 12} vertical={phone} style={{ flex: 1, minHeight: 0 }} data-testid="department-page">
      <Card
        size="small"
        title="组织架构"
        style={phone ? { height: '30vh', flex: 'none', display: 'flex', flexDirection: 'column' } : { width: 340, display: 'flex', flexDirection: 'column' }}
        styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0 } }}
        extra={
          <Permission code={MANAGE}>
            <OnlineOnly>
              <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create', parentId: null })} data-testid="dept-create-top">
                新建部门
              </Button>
            </OnlineOnly>
          </Permission>
        }
      >
        <Input.Search allowClear placeholder="搜索部门" value={keyword} onChange={(e) => setKeyword(e.target.value)} data-testid="dept-search" />
        {index ? (
          <DepartmentTree index={index} keyword={keyword} selectedId={selectedId} onSelect={(d) => setSelectedId(d.id)} extra={(d) => <span style={{ color: '#999', fontSize: 12 }}>{subtreeMembers(index, d.id)}</span>} />
        ) : null}
      </Card>
      <Card
        size="small"
        style={{ flex: phone ? 'none' : 1, minWidth: 0, minHeight: phone ? '60vh' : undefined, display: 'flex', flexDirection: 'column' }}
        styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column', gap: 12, minHeight: 0 } }}
        title={selected && index ? departmentPath(index, selected.id, DISPLAY_PATH_SEPARATOR) : '部门详情'}
        extra={phone ? undefined : phoneMask}
      >
        {/* A phone's card head has no room beside the path: the tenant-wide rule comes first in the body. */}
        {phone ? phoneMask : null}
        {!selected ? (
          <Empty description="在左侧选择一个部门" />
        ) : (
          <>
            <Descriptions size="small" column={phone ? 1 : 3} items={[
              { key: 'name', label: '名称', children: selected.name },
              { key: 'manager', label: '负责人', children: selected.managerName ?? '未设置' },
              { key: 'members', label: '人数', children: `${selected.memberCount}（含下级 ${index ? subtreeMembers(index, selected.id) : 0}）` },
            ]} />
            <Permission code={MANAGE}>
              <Space wrap style={online ? undefined : { pointerEvents: 'none', opacity: 0.5 }} aria-disabled={!online} title={online ? undefined : OFFLINE_REASON}>
                <Button icon={<PlusOutlined />} disabled={selected.unassigned} onClick={() => setDialog({ kind: 'create', parentId: selected.id })} data-testid="dept-create-child">
                  新建子部门
                </Button>
                <Button icon={<EditOutlined />} disabled={selected.unassigned} onClick={() => setDialog({ kind: 'rename', node: selected })} data-testid="dept-rename">
                  重命名
                </Button>
                <Button icon={<UserSwitchOutlined />} onClick={() => setPickManager(true)} data-testid="dept-manager">
                  设置负责人
                </Button>
                {selected.managerId ? (
                  <Popconfirm
                    title={`清除「${selected.name}」的负责人？`}
                    description={`${selected.managerName ?? '当前负责人'} 将不再是该部门的负责人；本部门需由负责人审批的申请改由上级部门的负责人（没有时由管理员）审批。`}
                    okText="清除"
                    cancelText="取消"
                    onConfirm={() => void run(() => updateDepartment(selected.id, { managerId: null }), '已清除负责人')}
                  >
                    <Button icon={<UserDeleteOutlined />} data-testid="dept-manager-clear">
                      清除负责人
                    </Button>
                  </Popconfirm>
                ) : null}
                <Tooltip title="上移">
                  <Button icon={<ArrowUpOutlined />} disabled={selected.unassigned || at <= 0} aria-label="上移" onClick={() => void run(() => moveDepartment(selected.id, selected.parentId, siblings[at - 1]!.id), '已上移')} />
                </Tooltip>
                <Tooltip title="下移">
                  <Button
                    icon={<ArrowDownOutlined />}
                    disabled={selected.unassigned || at < 0 || at >= siblings.length - 1}
                    aria-label="下移"
                    onClick={() => void run(() => moveDepartment(selected.id, selected.parentId, siblings[at + 2]?.id ?? null), '已下移')}
                  />
                </Tooltip>
                <Button icon={<DragOutlined />} disabled={selected.unassigned} onClick={() => setMoving(selected)} data-testid="dept-move">
                  移动到…
                </Button>
                <Popconfirm title={`删除“${selected.name}”？`} description="只能删除没有人员和子部门的部门。" okText="删除" cancelText="取消" onConfirm={async () => {
                  if (await run(() => deleteDepartment(selected.id), '已删除部门') !== undefined) setSelectedId(selected.parentId);
                }}>
                  <Button danger icon={<DeleteOutlined />} disabled={selected.unassigned} data-testid="dept-delete">
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            </Permission>
            <PeopleList
              people={members.items}
              index={index}
              loading={members.isPending}
              onNearEnd={() => {
                if (members.hasNextPage && !members.isFetchingNextPage) void members.fetchNextPage();
              }}
              testId="dept-members"
            />
          </>
        )}
      </Card>
      <NameDialog
        key={dialog ? (dialog.kind === 'rename' ? `r${dialog.node.id}` : `c${dialog.parentId ?? ''}`) : 'none'}
        open={dialog !== null}
        title={dialogTitle(dialog, index)}
        parent={dialog?.kind === 'create' ? (dialog.parentId && index ? departmentPath(index, dialog.parentId, DISPLAY_PATH_SEPARATOR) : null) : undefined}
        initial={dialog?.kind === 'rename' ? dialog.node.name : ''}
        onCancel={() => setDialog(null)}
        onOk={async (name) => {
          if (!dialog) return;
          const node = await run(() => (dialog.kind === 'rename' ? updateDepartment(dialog.node.id, { name }) : createDepartment(dialog.parentId, name)), dialog.kind === 'rename' ? '已重命名' : '已新建部门');
          if (node) {
            // The tree opens the new department's parents and scrolls to it (DepartmentTree reveals the selection).
            // A search it does not match would hide it (the phone's tree is mostly found through the search): it goes.
            if (!node.name.toLowerCase().includes(keyword.trim().toLowerCase())) setKeyword('');
            setSelectedId(node.id);
            setDialog(null);
          }
        }}
      />
      {index ? (
        <MoveDialog
          node={moving}
          index={index}
          onCancel={() => setMoving(null)}
          onOk={async (parentId) => {
            if (moving && (await run(() => moveDepartment(moving.id, parentId, null), '已移动部门'))) setMoving(null);
          }}
        />
      ) : null}
      <OrgPicker
        open={pickManager}
        single
        required="请选择一位负责人；要去掉负责人，请用“清除负责人”"
        title={selected ? `设置「${selected.name}」的负责人${selected.managerName ? `（当前：${selected.managerName}）` : ''}` : '选择部门负责人'}
        onCancel={() => setPickManager(false)}
        onOk={(s) => {
          const person = s.users[0];
          if (!person) return; // 确定 is disabled until someone is picked
          setPickManager(false);
          if (selected) void run(() => updateDepartment(selected.id, { managerId: person.id }), `负责人已设为 ${person.nickName}`);
        }}
      />
    </Flex>
  );
}
