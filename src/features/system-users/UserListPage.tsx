import { ApartmentOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Flex, Input, Modal, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { ROLES, type RoleCode, type UserRow, type UserState } from '../../../common/api/types';
import { DepartmentTree } from '../../components/DepartmentTree';
import { OnlineOnly } from '../../components/OnlineOnly';
import { useOnline } from '../../lib/data/online';
import { Permission, usePermission } from '../../lib/button-permissions';
import { useCurrentUser } from '../../lib/current-user';
import { ORG_KEYS, useOrgTree } from '../../lib/data/org';
import { useFeedback } from '../../lib/feedback/feedback';
import { usePhone } from '../../lib/use-phone';
import { DeleteUserModal } from './DeleteUserModal';
import { UserRows } from './UserRows';
import { USERS_KEY, useUserPages } from './use-user-pages';
import { setDepartment, setLocked, setOuterLogin, setRole } from './users-api';

/** Lock, roles, outer login (server: ALL_PERMISSIONS). */
export const MANAGE = 'system:user';
/** Add, edit, delete, batch add, hand over files. */
export const EDIT = 'system:userEdit';

const roleName = (code: RoleCode): string => ROLES.find((r) => r.code === code)?.name ?? code;

const STATES: Array<{ value: UserState; label: string }> = [
  { value: 'active', label: '正常' },
  { value: 'locked', label: '已锁定' },
  { value: 'mustChange', label: '待改初始密码' },
];

/**
 * 用户列表 (/main/system/user/list): the tenant's people, filtered by department (with its
 * sub-departments), role, state and a keyword over account, nickname and phone, in keyset pages;
 * role, lock and outer login change in place; add, edit, batch add, move and delete from here.
 */
export function UserListPage() {
  const { message, modal } = useFeedback();
  const [, navigate] = useLocation();
  const client = useQueryClient();
  const online = useOnline();
  // Offline, the list stays readable (cached pages) and every change is disabled.
  const canManage = usePermission(MANAGE) && online;
  const canEdit = usePermission(EDIT) && online;
  const selfId = useCurrentUser()?.id ?? null;
  const phone = usePhone();
  const tree = useOrgTree();
  const [departmentId, setDepartmentId] = useState<string | undefined>();
  const [includeSub, setIncludeSub] = useState(true);
  const [role, setRoleFilter] = useState<RoleCode | undefined>();
  const [state, setState] = useState<UserState | undefined>();
  const [keyword, setKeyword] = useState('');
  const [treeKeyword, setTreeKeyword] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<UserRow | null>(null);
  const [moving, setMoving] = useState(false);
  const [moveTo, setMoveTo] = useState<string | null>(null);
  const pages = useUserPages({ departmentId, includeSub, role, state, keyword: keyword.trim() || undefined });
  const total = pages.data?.pages[0]?.total;

  const search = <Input.Search allowClear placeholder="账号、昵称或手机号" onSearch={setKeyword} style={{ width: phone ? '100%' : 240 }} data-testid="user-search" />;

  const refresh = () => {
    void client.invalidateQueries({ queryKey: USERS_KEY });
    void client.invalidateQueries({ queryKey: ORG_KEYS.all });
  };

  /** Runs one account action, then reloads the list (the server's answer is the truth). */
  async function act(userId: string, action: () => Promise<unknown>, done: string) {
    setBusy(userId);
    try {
      await action();
      message.success(done);
    } catch {
      // the API client has shown the reason (last admin, cannot lock yourself...)
    } finally {
      setBusy(null);
      refresh();
    }
  }

  /**
   * A role change names the person and the change and waits for 确认修改: making someone 管理员 hands
   * them the whole tenant. The select keeps showing the current role until the server has answered,
   * so 取消 leaves it as it was.
   */
  function confirmRole(user: UserRow, role: RoleCode) {
    if (role === user.role) return;
    const from = roleName(user.role);
    const to = roleName(role);
    modal.confirm({
      title: role === 'admin' ? `将 ${user.nickName}（${user.website}）设为管理员？` : `将 ${user.nickName}（${user.website}）改为${to}？`,
      content:
        role === 'admin'
          ? `角色由「${from}」改为「${to}」。管理员可以管理全部用户、部门、公告、文件安全和系统配置，并查看操作日志。`
          : `角色由「${from}」改为「${to}」，将不再能使用系统管理。`,
      okText: '确认修改',
      cancelText: '取消',
      onOk: () => act(user.id, () => setRole(user.id, role), `已将 ${user.nickName} 的角色改为${to}`),
    });
  }

  async function moveSelected() {
    if (!moveTo) return;
    try {
      const { moved } = await setDepartment([...selected], moveTo);
      message.success(`已调整 ${moved} 人的部门`);
      setSelected(new Set());
      setMoving(false);
    } catch {
      // shown by the API client
    } finally {
      refresh();
    }
  }

  return (
    // A phone stacks the department tree (a third of the screen) above the list, each the screen's width.
    <Flex gap={phone ? 8 : 12} vertical={phone} style={{ flex: 1, minHeight: 0 }} data-testid="user-list">
      <Card size="small" title="部门" style={phone ? { height: '30vh', flex: 'none', display: 'flex', flexDirection: 'column' } : { width: 220, flex: 'none', display: 'flex', flexDirection: 'column' }} styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0 } }}>
        <Input.Search allowClear placeholder="搜索部门" onChange={(e) => setTreeKeyword(e.target.value)} data-testid="user-dept-search" />
        <div role="button" tabIndex={0} onClick={() => setDepartmentId(undefined)} onKeyDown={(e) => e.key === 'Enter' && setDepartmentId(undefined)} style={{ padding: '4px 8px', cursor: 'pointer', borderRadius: 6, background: departmentId ? undefined : '#e6f4ff' }}>
          全部用户
        </div>
        {tree.index ? <DepartmentTree index={tree.index} keyword={treeKeyword} selectedId={departmentId} onSelect={(d) => setDepartmentId(d.id)} testId="user-dept-tree" /> : null}
      </Card>
      <Card
        size="small"
        title={
          <Space size={8}>
            用户列表
            {total !== undefined ? (
              <Typography.Text type="secondary" style={{ fontWeight: 'normal' }} data-testid="user-total">
                共 {total} 人
              </Typography.Text>
            ) : null}
          </Space>
        }
        style={{ flex: 1, minWidth: 0, minHeight: phone ? '60vh' : undefined, display: 'flex', flexDirection: 'column' }} styles={{ body: { flex: 1, display: 'flex', flexDirection: 'column', gap: 12, minHeight: 0 } }}>
        {phone ? search : null}
        <Space wrap>
          {phone ? null : search}
          <Select<RoleCode> allowClear placeholder="角色" aria-label="按角色筛选" value={role} onChange={setRoleFilter} options={ROLES.map((r) => ({ value: r.code, label: r.name }))} style={{ width: 120 }} />
          <Select<UserState> allowClear placeholder="状态" aria-label="按状态筛选" value={state} onChange={setState} options={STATES} style={{ width: 140 }} data-testid="user-state-filter" />
          {departmentId ? (
            <Space size={4}>
              <Switch size="small" checked={includeSub} onChange={setIncludeSub} />
              <Typography.Text>含下级部门</Typography.Text>
            </Space>
          ) : null}
        </Space>
        <Permission code={EDIT}>
          <Space wrap>
            <OnlineOnly>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => navigate(`/main/system/user/add${departmentId ? `?departmentId=${encodeURIComponent(departmentId)}` : ''}`)} data-testid="user-add">
              新增用户
            </Button>
            </OnlineOnly>
            <OnlineOnly>
            <Button icon={<UploadOutlined />} onClick={() => navigate('/main/system/user/batchAdd')} data-testid="user-batch-add">
              批量新增
            </Button>
            </OnlineOnly>
            <OnlineOnly>
            <Button icon={<ApartmentOutlined />} disabled={selected.size === 0} onClick={() => setMoving(true)}>
              调整部门{selected.size ? `（${selected.size}）` : ''}
            </Button>
            </OnlineOnly>
          </Space>
        </Permission>
        <UserRows
          users={pages.items}
          index={tree.index}
          loading={pages.isPending}
          onNearEnd={() => {
            if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
          }}
          actions={{
            canManage,
            canEdit,
            selfId,
            busy,
            selected,
            onSelect: (id, on) => setSelected((s) => (on ? new Set(s).add(id) : new Set([...s].filter((x) => x !== id)))),
            onSelectAll: (on) => setSelected(on ? new Set(pages.items.map((u) => u.id)) : new Set()),
            onRole: confirmRole,
            onOuter: (u, on) => void act(u.id, () => setOuterLogin(u.id, on), on ? '已开通外网登录' : '已关闭外网登录'),
            onLock: (u, lock) => void act(u.id, () => setLocked(u.id, lock), lock ? '账号已锁定' : '账号已解锁'),
            onEdit: (u) => navigate(`/main/system/user/edit?id=${encodeURIComponent(u.id)}`),
            onDelete: setDeleting,
          }}
        />
      </Card>
      <DeleteUserModal user={deleting} onClose={() => setDeleting(null)} onDone={refresh} />
      <Modal open={moving} title={`调整 ${selected.size} 人的部门`} okText="确定" cancelText="取消" okButtonProps={{ disabled: !moveTo }} onCancel={() => setMoving(false)} onOk={() => void moveSelected()}>
        <div style={{ height: 360, display: 'flex', flexDirection: 'column' }}>{tree.index ? <DepartmentTree index={tree.index} selectedId={moveTo} onSelect={(d) => setMoveTo(d.id)} /> : null}</div>
      </Modal>
    </Flex>
  );
}
