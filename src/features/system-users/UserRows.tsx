import { DeleteOutlined, EditOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { Button, Checkbox, Empty, Popconfirm, Select, Space, Switch, Tag, Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import { ROLES, type RoleCode, type UserRow } from '../../../common/api/types';
import { formatSize } from '../../../common/format/size';
import { departmentNames, DISPLAY_PATH_SEPARATOR, type DepartmentIndex } from '../../../common/org/tree';
import { VirtualRows } from '../../components/VirtualRows';
import { usePhone } from '../../lib/use-phone';

const ROW = 48;
/**
 * Column template shared by the header and every row: it fits 1440 px beside the menu, the department
 * tree and the closed transfer panel (操作 in view without scrolling sideways): 空间 on two lines,
 * the row actions as labelled icons.
 */
const GRID: CSSProperties = {
  display: 'grid',
  gridTemplateColumns: '32px minmax(90px,1.2fr) minmax(80px,1fr) 104px minmax(90px,1.4fr) 100px 92px 72px 64px 96px',
  alignItems: 'center',
  gap: 8,
  padding: '0 8px',
};
const MIN_WIDTH = 866;

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
  // Darker text than antd's preset tags (3:1 and less on their tint): contrast AA.
  if (u.mustChangePassword) return <Tag color="gold" style={{ color: '#613400' }}>待改初始密码</Tag>;
  return <Tag color="green" style={{ color: '#135200' }}>正常</Tag>;
}

/**
 * The person's department as its whole path (总部 / 研发部 / 前端组): deep paths keep the top and the
 * last two levels (总部 / … / 研发部 / 前端组), the cell ends in … when still too wide, and the tooltip
 * always gives the whole path.
 */
function DepartmentCell({ index, id }: { index: DepartmentIndex | null; id: string }) {
  const names = index ? departmentNames(index, id) : [];
  if (names.length === 0) return <span role="cell">-</span>;
  const full = names.join(DISPLAY_PATH_SEPARATOR);
  const shown = names.length > 3 ? [names[0]!, '…', ...names.slice(-2)].join(DISPLAY_PATH_SEPARATOR) : full;
  return (
    <Tooltip title={full}>
      <span role="cell" aria-label={full} style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} data-testid="user-dept-path">
        {shown}
      </span>
    </Tooltip>
  );
}

function RoleSelect({ u, a, busy }: { u: UserRow; a: RowActions; busy: boolean }) {
  return (
    <Select<RoleCode>
      size="small"
      value={u.role}
      disabled={!a.canManage || busy}
      options={ROLES.map((r) => ({ value: r.code, label: r.name }))}
      onChange={(role) => a.onRole(u, role)}
      style={{ width: 96 }}
      aria-label={`${u.website} 的角色`}
      data-testid={`user-role-${u.website}`}
    />
  );
}

/** 编辑, 锁定 / 解锁 and 删除 of one person. */
function RowButtons({ u, a, busy }: { u: UserRow; a: RowActions; busy: boolean }) {
  return (
  <Space size={4} role="cell">
      {a.canEdit ? (
        <Tooltip title="编辑">
          <Button size="small" icon={<EditOutlined />} onClick={() => a.onEdit(u)} aria-label={`编辑 ${u.website}`} data-testid={`user-edit-${u.website}`} />
        </Tooltip>
      ) : null}
      {!a.canManage || u.id === a.selfId ? null : u.locked ? (
        <Tooltip title="解锁">
          <Button size="small" icon={<UnlockOutlined />} loading={busy} onClick={() => a.onLock(u, false)} aria-label={`解锁 ${u.website}`} data-testid={`user-unlock-${u.website}`} />
        </Tooltip>
      ) : (
        // Locking is undone by 解锁: a plain button; red stays for what cannot be undone (删除).
        <Popconfirm title={`锁定（停用）${u.nickName}（${u.website}）？`} description="锁定后该账号的登录会话立即失效，且无法再登录，直到解锁。" okText="锁定" cancelText="取消" onConfirm={() => a.onLock(u, true)}>
          <Tooltip title="锁定">
            <Button size="small" icon={<LockOutlined />} loading={busy} aria-label={`锁定 ${u.website}`} data-testid={`user-lock-${u.website}`} />
          </Tooltip>
        </Popconfirm>
      )}
      {a.canEdit && u.id !== a.selfId ? (
        <Tooltip title="删除">
          <Button size="small" danger icon={<DeleteOutlined />} onClick={() => a.onDelete(u)} aria-label={`删除 ${u.website}`} data-testid={`user-delete-${u.website}`} />
        </Tooltip>
      ) : null}
    </Space>
  );
}

/**
 * A phone's row: two lines in the screen's width, no sideways scrolling — who (nickname, account) and
 * the 角色 select; the department path and state, and the row's buttons. 空间 and 外网登录 are in 编辑.
 */
const PHONE_ROW = 88;
const PHONE_GRID: CSSProperties = { display: 'grid', gridTemplateColumns: '28px minmax(0,1fr) auto', gridTemplateRows: '1fr 1fr', columnGap: 8, alignItems: 'center', padding: '6px 8px' };

function PhoneRow({ u, a, index, style }: { u: UserRow; a: RowActions; index: DepartmentIndex | null; style: CSSProperties }) {
  const busy = a.busy === u.id;
  return (
    <div role="row" data-testid={`user-row-${u.website}`} style={{ ...style, ...PHONE_GRID, borderBottom: '1px solid #f0f0f0' }}>
      <span role="cell" style={{ gridRow: '1 / span 2' }}>
        <Checkbox checked={a.selected.has(u.id)} onChange={(e) => a.onSelect(u.id, e.target.checked)} aria-label={`选择 ${u.website}`} />
      </span>
      <span role="cell" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {u.nickName} <span style={{ color: 'rgba(0,0,0,0.58)' }}>{u.website}</span>
      </span>
      <span role="cell" style={{ justifySelf: 'end' }}>
        <RoleSelect u={u} a={a} busy={busy} />
      </span>
      <span style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
        {stateTag(u)}
        <DepartmentCell index={index} id={u.departmentId} />
      </span>
      <span style={{ justifySelf: 'end' }}>
        <RowButtons u={u} a={a} busy={busy} />
      </span>
    </div>
  );
}

/** 用户管理's rows: a virtual table (20,000 people keep ~30 rows in the DOM), next page near the bottom. */
export function UserRows(props: { users: UserRow[]; index: DepartmentIndex | null; onNearEnd: () => void; actions: RowActions; loading: boolean }) {
  const { users, index, actions: a } = props;
  const allOn = users.length > 0 && users.every((u) => a.selected.has(u.id));
  const phone = usePhone();
  // The same header checkbox and empty state in the phone and the desktop layout.
  const selectAll = <Checkbox checked={allOn} indeterminate={!allOn && a.selected.size > 0} onChange={(e) => a.onSelectAll(e.target.checked)} aria-label="全选" />;
  const empty = props.loading ? null : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有符合条件的用户" />;
  if (phone) {
    return (
      <div style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }} role="table" aria-label="用户列表">
        <div role="row" style={{ display: 'flex', alignItems: 'center', gap: 8, height: 40, padding: '0 8px', background: '#fafafa', fontWeight: 500, borderBottom: '1px solid #f0f0f0' }}>
          <span role="columnheader">
            {selectAll}
          </span>
          <span role="columnheader">用户</span>
        </div>
        <VirtualRows
          testId="user-rows"
          count={users.length}
          rowHeight={PHONE_ROW}
          onNearEnd={props.onNearEnd}
          empty={empty}
          renderRow={(i, style) => <PhoneRow key={users[i]!.id} u={users[i]!} a={a} index={index} style={style} />}
        />
      </div>
    );
  }
  return (
    <div style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', overflowX: 'auto' }} role="table" aria-label="用户列表">
      <div role="row" style={{ ...GRID, minWidth: MIN_WIDTH, height: 40, background: '#fafafa', fontWeight: 500, borderBottom: '1px solid #f0f0f0' }}>
        <span role="columnheader">
          {selectAll}
        </span>
        <span role="columnheader">账号</span>
        <span role="columnheader">昵称</span>
        <span role="columnheader">手机号</span>
        <span role="columnheader">部门</span>
        <span role="columnheader">角色</span>
        <span role="columnheader">状态</span>
        <span role="columnheader">空间</span>
        <span role="columnheader" title="外网登录">外网</span>
        <span role="columnheader">操作</span>
      </div>
      <VirtualRows
        testId="user-rows"
        count={users.length}
        rowHeight={ROW}
        onNearEnd={props.onNearEnd}
        style={{ minWidth: MIN_WIDTH }}
        empty={empty}
        renderRow={(i, style) => {
          const u = users[i]!;
          const busy = a.busy === u.id;
          return (
            <div key={u.id} role="row" data-testid={`user-row-${u.website}`} style={{ ...style, ...GRID, borderBottom: '1px solid #f0f0f0' }}>
              <span role="cell">
                <Checkbox checked={a.selected.has(u.id)} onChange={(e) => a.onSelect(u.id, e.target.checked)} aria-label={`选择 ${u.website}`} />
              </span>
              <span role="cell" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{u.website}</span>
              <span role="cell" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{u.nickName}</span>
              <span role="cell">{u.phone || '-'}</span>
              <DepartmentCell index={index} id={u.departmentId} />
              <span role="cell">
                <RoleSelect u={u} a={a} busy={busy} />
              </span>
              <span role="cell">{stateTag(u)}</span>
              <span role="cell" style={{ fontSize: 12, lineHeight: '16px', display: 'flex', flexDirection: 'column' }} title={`已用 ${formatSize(u.usedSize)}，共 ${formatSize(u.quota)}`}>
                <span>{formatSize(u.usedSize)}</span>
                <span style={{ color: 'rgba(0,0,0,0.6)' }}>/ {formatSize(u.quota)}</span>
              </span>
              <span role="cell">
                <Switch size="small" checked={u.outerLogin} disabled={!a.canManage || busy} onChange={(on) => a.onOuter(u, on)} aria-label={`${u.website} 外网登录`} data-testid={`user-outer-${u.website}`} />
              </span>
              <RowButtons u={u} a={a} busy={busy} />
            </div>
          );
        }}
      />
    </div>
  );
}
