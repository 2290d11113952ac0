import { lazyWhenOpen } from '../../../components/lazy-when-open';
import { ArrowLeftOutlined, PlusOutlined, TeamOutlined } from '@ant-design/icons';
import { Button, Flex, Popconfirm, Space, Spin, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { SpaceInfo } from '../../../../common/api/types';
import { formatDateTime } from '../../../../common/format/date';
import { SPACE_ROLE_LABELS, spaceAllows } from '../../../../common/files/space-roles';
import { FileKindIcon } from '../../../components/FileKindIcon';
import { OfflineUncached } from '../../../components/OfflineUncached';
import { useOnline } from '../../../lib/data/online';
import { Permission } from '../../../lib/button-permissions';
import { useCurrentUser } from '../../../lib/current-user';
import { PAGE_PERMISSIONS } from '../actions/file-actions';
import { SPACE_QUERY_PARAM } from '../file-locations';
import { SpaceBrowser } from '../FilePages';
import { createGroup, deleteGroup, renameGroup } from '../files-api';
import { NameModal } from '../dialogs/NameModal';
import { useGroups, usePublicSpace } from '../space-queries';
import { useFeedback } from '../../../lib/feedback/feedback';

// Loaded the first time 成员 opens (components/lazy-when-open).
const GroupMembersDrawer = lazyWhenOpen(() => import('./GroupMembersDrawer').then((m) => m.GroupMembersDrawer), (p) => p.group !== null);

/**
 * 群组空间 (/main/group): the caller's group spaces; `?space=<id>` opens one as a file tree, with its
 * members and roles (owner, manager, member — common/files/space-roles.ts decides who may do what).
 */
export function GroupPage() {
  const params = new URLSearchParams(useSearch());
  const spaceId = params.get(SPACE_QUERY_PARAM);
  const [, navigate] = useLocation();
  const list = useGroups();
  const groups = list.data ?? (list.isError ? [] : null);
  const { refetch } = list;
  const reload = useCallback(() => void refetch(), [refetch]);
  const online = useOnline();
  // Offline, never loaded on this device: say so (a spinner would never end).
  if (groups === null && !online) return <OfflineUncached />;

  if (spaceId) return <GroupSpace spaceId={spaceId} groups={groups} fetching={list.isFetching} onBack={() => navigate('/main/group')} onChanged={reload} />;
  return <GroupList groups={groups} onOpen={(id) => navigate(`/main/group?${SPACE_QUERY_PARAM}=${encodeURIComponent(id)}`)} onChanged={reload} />;
}

function GroupList({ groups, onOpen, onChanged }: { groups: SpaceInfo[] | null; onOpen: (id: string) => void; onChanged: () => void }) {
  const { message } = useFeedback();
  const user = useCurrentUser();
  const isAdmin = user?.role === 'admin';
  const [dialog, setDialog] = useState<{ kind: 'create' } | { kind: 'rename'; group: SpaceInfo } | null>(null);
  const [members, setMembers] = useState<SpaceInfo | null>(null);

  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="group-page">
      <Space>
        <Permission code={PAGE_PERMISSIONS.createGroup}>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'create' })} data-testid="group-create">
            新建群组
          </Button>
        </Permission>
      </Space>
      <Table<SpaceInfo>
        data-testid="group-table"
        rowKey="id"
        loading={groups === null}
        dataSource={groups ?? []}
        pagination={false}
        locale={{ emptyText: '暂无群组空间' }}
        columns={[
          {
            title: '群组名称',
            key: 'name',
            render: (_: unknown, g) => (
              <a
                href="#"
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(g.id);
                }}
                style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}
              >
                <FileKindIcon kind="groupFolder" />
                {g.name}
              </a>
            ),
          },
          { title: '我的角色', key: 'role', width: 120, render: (_: unknown, g) => (g.myRole ? <Tag>{SPACE_ROLE_LABELS[g.myRole]}</Tag> : '-') },
          { title: '成员数', dataIndex: 'memberCount', key: 'memberCount', width: 100 },
          { title: '创建时间', key: 'createdAt', width: 170, render: (_: unknown, g) => formatDateTime(g.createdAt) },
          {
            title: '操作',
            key: 'actions',
            width: 240,
            render: (_: unknown, g) => (
              <Space size={4}>
                <Button type="link" size="small" icon={<TeamOutlined />} onClick={() => setMembers(g)}>
                  成员
                </Button>
                <Permission code={PAGE_PERMISSIONS.manageGroup}>
                  {spaceAllows(g.myRole, 'renameGroup', isAdmin) && (
                    <Button type="link" size="small" onClick={() => setDialog({ kind: 'rename', group: g })}>
                      重命名
                    </Button>
                  )}
                  {spaceAllows(g.myRole, 'deleteGroup', isAdmin) && (
                    <Popconfirm
                      title={`删除群组「${g.name}」？`}
                      description="只有空的群组可以删除。"
                      okText="删除"
                      cancelText="取消"
                      onConfirm={async () => {
                        await deleteGroup(g.id);
                        message.success('群组已删除');
                        onChanged();
                      }}
                    >
                      <Button type="link" size="small" danger>
                        删除
                      </Button>
                    </Popconfirm>
                  )}
                </Permission>
              </Space>
            ),
          },
        ]}
      />
      <NameModal
        open={dialog?.kind === 'create'}
        title="新建群组"
        initialName=""
        rule="identifier"
        inputTestId="group-name-input"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          await createGroup(name);
          message.success('群组已创建');
          onChanged();
        }}
      />
      <NameModal
        open={dialog?.kind === 'rename'}
        title="重命名群组"
        initialName={dialog?.kind === 'rename' ? dialog.group.name : ''}
        rule="identifier"
        inputTestId="group-rename-input"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return;
          await renameGroup(dialog.group.id, name);
          message.success('已重命名');
          onChanged();
        }}
      />
      <GroupMembersDrawer group={members} isAdmin={isAdmin} onClose={() => setMembers(null)} onChanged={onChanged} />
    </Flex>
  );
}

function GroupSpace({ spaceId, groups, fetching, onBack, onChanged }: { spaceId: string; groups: SpaceInfo[] | null; fetching: boolean; onBack: () => void; onChanged: () => void }) {
  const user = useCurrentUser();
  const [, navigate] = useLocation();
  const [members, setMembers] = useState(false);
  const group = groups?.find((g) => g.id === spaceId) ?? null;

  // An id that is not one of the caller's groups may be the public space (a search hit there).
  const pub = usePublicSpace(groups !== null && !group).data;
  useEffect(() => {
    if (groups === null || group || !pub || pub.id !== spaceId) return;
    const params = new URLSearchParams(window.location.search);
    params.delete(SPACE_QUERY_PARAM);
    const qs = params.toString();
    navigate(`/main/file/publicSpace${qs ? `?${qs}` : ''}`, { replace: true });
  }, [groups, group, pub, spaceId, navigate]);

  // A group one was just added to (its message opens it) is in the list being asked again, not the cached one.
  if (groups === null || (!group && fetching)) return <Spin />;
  if (!group) return <div data-testid="group-missing">群组不存在或您不是其成员</div>;
  return (
    <Flex vertical gap={8} style={{ flex: 1, minHeight: 0 }}>
      <Space>
        <Button icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="group-back">
          返回群组列表
        </Button>
        <Button icon={<TeamOutlined />} onClick={() => setMembers(true)} data-testid="group-members">
          成员（{group.memberCount}）
        </Button>
        {group.myRole && <Tag>{SPACE_ROLE_LABELS[group.myRole]}</Tag>}
      </Space>
      <SpaceBrowser space={group} />
      <GroupMembersDrawer group={members ? group : null} isAdmin={user?.role === 'admin'} onClose={() => setMembers(false)} onChanged={onChanged} />
    </Flex>
  );
}
