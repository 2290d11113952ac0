import { LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Button, Card, Input, Popconfirm, Select, Space, Switch, Table, Tag, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLES, type RoleCode, type UserSummary } from '../../../common/api/types';
import { useCurrentUser } from '../../lib/current-user';
import { Permission, usePermission } from '../../lib/button-permissions';
import { searchUsers, setLocked, setOuterLogin, setRole } from './users-api';
import { useFeedback } from '../../lib/feedback/feedback';

/** The button permission that gates every account action on this page (server: ALL_PERMISSIONS). */
const MANAGE = 'system:user';

/**
 * Spec §2 `/main/system/user/list` for admins: the tenant's accounts with their role, lock state and
 * outer login (spec §6), each changeable in place. The server re-checks everything (adminOnly).
 */
export function UserListPage() {
  const { message } = useFeedback();
  const canManage = usePermission(MANAGE);
  const [keyword, setKeyword] = useState('');
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  // An admin cannot lock themself (the server refuses it): no lock button on their own row.
  const selfId = useCurrentUser()?.id ?? null;
  const list = useQuery({ queryKey: ['account', 'users', query], queryFn: ({ signal }) => searchUsers(query, signal) });
  const users = list.data ?? (list.isError ? [] : null);

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
      void list.refetch();
    }
  }

  const columns: TableColumnsType<UserSummary> = [
    { title: '账号', dataIndex: 'website', key: 'website', width: 140, ellipsis: true },
    { title: '昵称', dataIndex: 'nickName', key: 'nickName', width: 140, ellipsis: true },
    { title: '手机号', dataIndex: 'phone', key: 'phone', width: 130, render: (phone: string) => phone || '-' },
    {
      title: '角色',
      key: 'role',
      width: 140,
      render: (_: unknown, user) => (
        <Select<RoleCode>
          size="small"
          value={user.role}
          disabled={!canManage || busy === user.id}
          options={ROLES.map((r) => ({ value: r.code, label: r.name }))}
          onChange={(role) => void act(user.id, () => setRole(user.id, role), '角色已更新')}
          style={{ width: 110 }}
          data-testid={`user-role-${user.website}`}
        />
      ),
    },
    {
      title: '状态',
      key: 'locked',
      width: 90,
      render: (_: unknown, user) => (user.locked ? <Tag color="red">已锁定</Tag> : <Tag color="green">正常</Tag>),
    },
    {
      title: '外网登录',
      key: 'outerLogin',
      width: 100,
      render: (_: unknown, user) => (
        <Switch
          size="small"
          checked={user.outerLogin}
          disabled={!canManage || busy === user.id}
          onChange={(enabled) => void act(user.id, () => setOuterLogin(user.id, enabled), enabled ? '已开通外网登录' : '已关闭外网登录')}
          data-testid={`user-outer-${user.website}`}
        />
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 110,
      render: (_: unknown, user) => (
        <Permission code={MANAGE}>
          {user.id === selfId ? null : user.locked ? (
            <Button size="small" icon={<UnlockOutlined />} loading={busy === user.id} onClick={() => void act(user.id, () => setLocked(user.id, false), '账号已解锁')} data-testid={`user-unlock-${user.website}`}>
              解锁
            </Button>
          ) : (
            <Popconfirm title="锁定该账号？" description="锁定后该账号的登录会话立即失效，且无法再登录，直到解锁。" okText="锁定" cancelText="取消" onConfirm={() => act(user.id, () => setLocked(user.id, true), '账号已锁定')}>
              <Button size="small" danger icon={<LockOutlined />} loading={busy === user.id} data-testid={`user-lock-${user.website}`}>
                锁定
              </Button>
            </Popconfirm>
          )}
        </Permission>
      ),
    },
  ];

  return (
    <Card title="用户列表" data-testid="user-list">
      <Space style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder="按账号或昵称搜索"
          value={keyword}
          onChange={(e) => setKeyword(e.target.value)}
          onSearch={(value) => setQuery(value)}
          style={{ width: 260 }}
          data-testid="user-search"
        />
      </Space>
      <Table<UserSummary> rowKey="id" columns={columns} dataSource={users ?? []} loading={users === null} pagination={false} size="middle" scroll={{ x: 'max-content' }} locale={{ emptyText: '没有符合条件的用户' }} />
    </Card>
  );
}
