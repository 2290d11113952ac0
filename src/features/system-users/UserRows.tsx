import { DeleteOutlined, EditOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Button, Checkbox, Empty, Popconfirm, Select, Space, Switch, Tag, Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import { ROLES, type RoleCode, type UserRow } from '../../../common/api/types';
import { formatSize } from '../../../common/format/size';
import { departmentPath, type DepartmentIndex } from '../../../common/org/tree';
import { VirtualRows } from '../../components/VirtualRows';

const ROW = 48;
/** Column template shared by the header and every row. */
const GRID: CSSProperties = {
  display: 'grid',
  gridTemplateColumns: '32px minmax(110px,1.2fr) minmax(90px,1fr) 120px minmax(120px,1.4fr) 120px 84px 130px 80px 190px',
  alignItems: 'center',
  gap: 8,
  padding: '0 8px',
};

export interface RowActions {
  canManage: boolean;
  canEdit: boolean;
  selfId: string | null;
  busy: string | null;
  selected: ReadonlySet<string>;
  onSelect(id: string, on: boolean): void;
  onSelectAll(on: boolean): void;
  onRole(user: UserRow, role: RoleCode): void;
  onOuter(user: UserRow, on: boolean): void;
  onLock(user: UserRow, lock: boolean): void;
  onEdit(user: UserRow): void;
  onDelete(user: UserRow): void;
}

function stateTag(u: UserRow) {
  if (u.locked) return <Tag color="red">{u.lockedReason === 'failures' ? '已锁定(登录失败)' : '已锁定'}</Tag>;
  if (u.mustChangePassword) return <Tag color="gold">待改初始密码</Tag>;
  return <Tag color="green">正常</Tag>;
}

/** 用户管理's rows: a virtual table (20,000 people keep ~30 rows in the DOM), next page near the bottom. */
export function UserRows(props: { users: UserRow[]; index: DepartmentIndex | null; onNearEnd: () => void; actions: RowActions; loading: boolean }) {
  const { users, index, actions: a } = props;
  const allOn = users.length > 0 && users.every((u) => a.selected.has(u.id));
  return (
    <div style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', overflowX: 'auto' }} role="table" aria-label="用户列表">
      <div role="row" style={{ ...GRID, minWidth: 1100, height: 40, background: '#fafafa', fontWeight: 500, borderBottom: '1px solid #f0f0f0' }}>
        <Checkbox checked={allOn} indeterminate={!allOn && a.selected.size > 0} onChange={(e) => a.onSelectAll(e.target.checked)} aria-label="全选" />
        <span role="columnheader">账号</span>
        <span role="columnheader">昵称</span>
        <span role="columnheader">手机号</span>
        <span role="columnheader">部门</span>
        <span role="columnheader">角色</span>
        <span role="columnheader">状态</span>
        <span role="columnheader">空间</span>
        <span role="columnheader">外网登录</span>
        <span role="columnheader">操作</span>
      </div>
      <VirtualRows
        testId="user-rows"
        count={users.length}
        rowHeight={ROW}
        onNearEnd={props.onNearEnd}
        style={{ minWidth: 1100 }}
        empty={props.loading ? null : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的用户" />}
        renderRow={(i, style) => {
          const u = users[i]!;
          const busy = a.busy === u.id;
          return (
            <div key={u.id} role="row" data-testid={`user-row-${u.website}`} style={{ ...style, ...GRID, borderBottom: '1px solid #f0f0f0' }}>
              <Checkbox checked={a.selected.has(u.id)} onChange={(e) => a.onSelect(u.id, e.target.checked)} aria-label={`选择 ${u.website}`} />
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{u.website}</span>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{u.nickName}</span>
              <span>{u.phone || '-'}</span>
              <Tooltip title={index ? departmentPath(index, u.departmentId) : ''}>
                <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{index?.byId.get(u.departmentId)?.name ?? '-'}</span>
              </Tooltip>
              <Select<RoleCode>
                size="small"
                value={u.role}
                disabled={!a.canManage || busy}
                options={ROLES.map((r) => ({ value: r.code, label: r.name }))}
                onChange={(role) => a.onRole(u, role)}
                style={{ width: 110 }}
                data-testid={`user-role-${u.website}`}
              />
              <span>{stateTag(u)}</span>
              <span style={{ fontSize: 12 }}>
                {formatSize(u.usedSize)} / {formatSize(u.quota)}
              </span>
              <Switch size="small" checked={u.outerLogin} disabled={!a.canManage || busy} onChange={(on) => a.onOuter(u, on)} data-testid={`user-outer-${u.website}`} />
              <Space size={4}>
                {a.canEdit ? (
                  <Button size="small" icon={<EditOutlined />} onClick={() => a.onEdit(u)} data-testid={`user-edit-${u.website}`}>
                    编辑
                  </Button>
                ) : null}
                {!a.canManage || u.id === a.selfId ? null : u.locked ? (
                  <Button size="small" icon={<UnlockOutlined />} loading={busy} onClick={() => a.onLock(u, false)} data-testid={`user-unlock-${u.website}`}>
                    解锁
                  </Button>
                ) : (
                  <Popconfirm title="锁定（停用）该账号？" description="锁定后该账号的登录会话立即失效，且无法再登录，直到解锁。" okText="锁定" cancelText="取消" onConfirm={() => a.onLock(u, true)}>
                    <Button size="small" danger icon={<LockOutlined />} loading={busy} data-testid={`user-lock-${u.website}`}>
                      锁定
                    </Button>
                  </Popconfirm>
                )}
                {a.canEdit && u.id !== a.selfId ? (
                  <Button size="small" danger icon={<DeleteOutlined />} onClick={() => a.onDelete(u)} aria-label={`删除 ${u.website}`} data-testid={`user-delete-${u.website}`} />
                ) : null}
              </Space>
            </div>
          );
        }}
      />
    </div>
  );
}
