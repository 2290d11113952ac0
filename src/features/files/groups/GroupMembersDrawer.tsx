import { UserAddOutlined } from '@ant-design/icons';
import { Button, Drawer, Popconfirm, Select, Space, Table } from 'antd';
import { useCallback, useEffect, useState, type HTMLAttributes } from 'react';
import type { SpaceInfo, SpaceMember, SpaceRole } from '../../../../common/api/types';
import { formatDateTime } from '../../../../common/format/date';
import { SPACE_ROLE_LABELS, spaceAllows } from '../../../../common/files/space-roles';
import { usePermission } from '../../../lib/button-permissions';
import { usePhone } from '../../../lib/use-phone';
import { PAGE_PERMISSIONS } from '../actions/file-actions';
import { addGroupMember, listGroupMembers, removeGroupMember, setGroupMemberRole } from '../files-api';
import { useFeedback } from '../../../lib/feedback/feedback';
import { OrgPicker, type OrgSelection } from '../../../components/OrgPicker';

const ROLES: SpaceRole[] = ['owner', 'manager', 'member'];

/**
 * Members of a group and their roles. Owners manage everyone; managers manage members and managers
 * (not owners, and cannot make owners); the server keeps at least one owner and refuses the rest.
 */
export function GroupMembersDrawer({ group, isAdmin, onClose, onChanged }: { group: SpaceInfo | null; isAdmin: boolean; onClose: () => void; onChanged: () => void }) {
  const { message } = useFeedback();
  const [members, setMembers] = useState<SpaceMember[] | null>(null);
  const [newRole, setNewRole] = useState<SpaceRole>('member');
  const [picking, setPicking] = useState(false);
  // A phone has room for three columns: who (account and joining date under the name), 角色 and 移除.
  const phone = usePhone();

  const load = useCallback(() => {
    if (!group) return;
    setMembers(null);
    listGroupMembers(group.id).then(setMembers, () => setMembers([]));
  }, [group]);
  useEffect(load, [load]);

  const role = group?.myRole ?? null;
  // Both must agree: the page button permission, and the caller's role in this group.
  const mayManage = usePermission(PAGE_PERMISSIONS.manageGroup);
  const manages = group !== null && mayManage && spaceAllows(role, 'manageMembers', isAdmin);
  const managesOwners = group !== null && spaceAllows(role, 'manageOwners', isAdmin);
  const mayTouch = (m: SpaceMember) => manages && (m.role !== 'owner' || managesOwners);
  const grantable = ROLES.filter((r) => r !== 'owner' || managesOwners);

  async function change(action: () => Promise<unknown>, done: string) {
    try {
      await action();
      message.success(done);
      load();
      onChanged();
    } catch {
      // shown by the API client
    }
  }

  /** The people chosen in the picker join with the chosen role; those already in the group are left as they are. */
  async function addPicked(selection: OrgSelection) {
    setPicking(false);
    if (!group) return;
    const present = new Set((members ?? []).map((m) => m.userId));
    const joining = selection.users.filter((u) => !present.has(u.id));
    if (joining.length === 0) return void message.info('所选人员已在群组中。');
    let added = 0;
    for (const u of joining) {
      try {
        await addGroupMember(group.id, u.website, newRole);
        added++;
      } catch {
        // shown by the API client; the others are still added
      }
    }
    if (added > 0) message.success(`已添加 ${added} 名成员`);
    load();
    onChanged();
  }

  return (
    <Drawer open={group !== null} title={group ? `成员：${group.name}` : ''} onClose={onClose} size="large" destroyOnHidden>
      {manages && group && (
        <Space style={{ marginBottom: 16 }}>
          <Select<SpaceRole> style={{ width: 110 }} value={newRole} onChange={setNewRole} aria-label="新成员的角色" options={grantable.map((r) => ({ value: r, label: SPACE_ROLE_LABELS[r] }))} />
          <Button type="primary" icon={<UserAddOutlined />} onClick={() => setPicking(true)} data-testid="member-add">
            添加成员
          </Button>
        </Space>
      )}
      <OrgPicker open={picking} excludeSelf title={group ? `添加成员到「${group.name}」` : '添加成员'} onCancel={() => setPicking(false)} onOk={(s) => void addPicked(s)} />
      <Table<SpaceMember>
        rowKey="userId"
        loading={members === null}
        dataSource={members ?? []}
        pagination={false}
        size="small"
        onRow={(m) => ({ 'data-testid': `member-${m.username}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          ...(phone
            ? [
                {
                  title: '成员',
                  key: 'who',
                  render: (_: unknown, m: SpaceMember) => (
                    <div style={{ minWidth: 0, wordBreak: 'break-all' }}>
                      <div>{m.nickName || m.username}</div>
                      <div style={{ color: '#888', fontSize: 12 }}>
                        {m.username} · {formatDateTime(m.joinedAt)} 加入
                      </div>
                    </div>
                  ),
                },
              ]
            : [
                { title: '姓名', dataIndex: 'nickName', key: 'nickName' },
                { title: '账号', dataIndex: 'username', key: 'username' },
              ]),
          {
            title: '角色',
            key: 'role',
            width: phone ? 104 : 130,
            render: (_: unknown, m: SpaceMember) =>
              group && mayTouch(m) ? (
                <Select
                  size="small"
                  value={m.role}
                  style={{ width: phone ? 92 : 100 }}
                  data-testid={`member-role-${m.username}`}
                  options={grantable.map((r) => ({ value: r, label: SPACE_ROLE_LABELS[r] }))}
                  onChange={(r) => void change(() => setGroupMemberRole(group.id, m.userId, r), '角色已更新')}
                />
              ) : (
                SPACE_ROLE_LABELS[m.role]
              ),
          },
          ...(phone ? [] : [{ title: '加入时间', key: 'joinedAt', width: 150, render: (_: unknown, m: SpaceMember) => formatDateTime(m.joinedAt) }]),
          {
            title: '操作',
            key: 'actions',
            width: phone ? 64 : 80,
            render: (_: unknown, m: SpaceMember) =>
              group && mayTouch(m) ? (
                <Popconfirm title={`移除成员 ${m.nickName || m.username}？`} okText="移除" cancelText="取消" onConfirm={() => change(() => removeGroupMember(group.id, m.userId), '成员已移除')}>
                  <Button type="link" size="small" danger data-testid={`member-remove-${m.username}`}>
                    移除
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />

    </Drawer>
  );
}
