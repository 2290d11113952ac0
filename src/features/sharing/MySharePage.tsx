import { CopyOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Popconfirm, Segmented, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { useSearch } from 'wouter';
import {
  SHARE_PERMISSION_LABELS,
  SHARE_RECIPIENT_LABELS,
  SHARE_STATE_LABELS,
  type LinkInfo,
  type ShareInfo,
  type ShareState,
} from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { FileKindIcon } from '../../components/FileKindIcon';
import { revokeLinks, revokeShares, useMyLinks, useMyShares, useSharingChanged } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';
import { EditLinkModal, EditShareModal } from './EditShareModals';
import { copyLink, LINK_STATE_LABELS, MoreRows, stateColor } from './sharing-ui';

const STATE_OPTIONS = (['active', 'expired', 'revoked'] as const).map((s) => ({ value: s, label: SHARE_STATE_LABELS[s] }));

/**
 * 我的分享 (/main/safe/myShare): the caller's internal shares and links, with their state, change and
 * revoke (one or several), and for links the code, the views and the downloads.
 */
export function MySharePage() {
  // A message about a link (its downloads) opens the links at it: `?link=<id>`.
  const focusLink = new URLSearchParams(useSearch()).get('link');
  const [tab, setTab] = useState<'shares' | 'links'>(focusLink ? 'links' : 'shares');
  const [states, setStates] = useState<ShareState[]>([]);
  const [keyword, setKeyword] = useState('');
  const filter = { states, keyword };
  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="my-share-page">
      <Space wrap>
        <Segmented
          value={tab}
          onChange={(v) => setTab(v as 'shares' | 'links')}
          options={[
            { value: 'shares', label: <span data-testid="my-share-tab-shares">内部共享</span> },
            { value: 'links', label: <span data-testid="my-share-tab-links">外链分享</span> },
          ]}
        />
        <Select mode="multiple" allowClear placeholder="全部状态" style={{ minWidth: 200 }} value={states} onChange={setStates} options={STATE_OPTIONS} />
        <Input.Search allowClear placeholder="文件名" style={{ width: 220 }} onSearch={(v) => setKeyword(v.trim())} />
      </Space>
      {tab === 'shares' ? <SharesTable filter={filter} /> : <LinksTable filter={filter} focusId={focusLink} />}
    </Flex>
  );
}

function fileCell(file: ShareInfo['file']) {
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <FileKindIcon kind={file.isDir ? 'folder' : file.kind} />
      <span>{file.name || '（已删除）'}</span>
      {file.deleted && <Tag>已删除</Tag>}
    </span>
  );
}

function SharesTable({ filter }: { filter: { states: ShareState[]; keyword: string } }) {
  const { message } = useFeedback();
  const list = useMyShares(filter);
  const changed = useSharingChanged();
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<ShareInfo | null>(null);
  const revoke = async (ids: string[]) => {
    const r = await revokeShares(ids);
    message.success(`已取消 ${r.revoked} 个共享`);
    setSelected([]);
    changed();
  };
  return (
    <>
      <Space>
        <Popconfirm title={`取消选中的 ${selected.length} 个共享？`} okText="取消共享" cancelText="返回" disabled={selected.length === 0} onConfirm={() => revoke(selected)}>
          <Button danger disabled={selected.length === 0} data-testid="shares-revoke-selected">
            批量取消共享
          </Button>
        </Popconfirm>
      </Space>
      <Table<ShareInfo>
        rowKey="id"
        data-testid="my-shares-table"
        loading={list.loading}
        dataSource={list.items}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), getCheckboxProps: (r) => ({ disabled: r.state === 'revoked' }) }}
        locale={{ emptyText: '暂无共享' }}
        columns={[
          { title: '文件', key: 'file', render: (_: unknown, r) => fileCell(r.file) },
          { title: '共享对象', key: 'recipient', width: 200, render: (_: unknown, r) => `${r.recipient.name}（${SHARE_RECIPIENT_LABELS[r.recipient.type]}）` },
          { title: '权限', key: 'permission', width: 90, render: (_: unknown, r) => SHARE_PERMISSION_LABELS[r.permission] },
          { title: '到期时间', key: 'expiresAt', width: 160, render: (_: unknown, r) => (r.expiresAt ? formatDateTime(r.expiresAt) : '永久有效') },
          { title: '状态', key: 'state', width: 90, render: (_: unknown, r) => <Tag color={stateColor(r.state)}>{SHARE_STATE_LABELS[r.state]}</Tag> },
          { title: '共享时间', key: 'createdAt', width: 160, render: (_: unknown, r) => formatDateTime(r.createdAt) },
          {
            title: '操作',
            key: 'actions',
            width: 150,
            render: (_: unknown, r) =>
              r.state === 'revoked' ? null : (
                <Space size={4}>
                  <Button type="link" size="small" onClick={() => setEditing(r)} data-testid={`share-edit-${r.id}`}>
                    修改
                  </Button>
                  <Popconfirm title="取消这个共享？对方将立即无法访问。" okText="取消共享" cancelText="返回" onConfirm={() => revoke([r.id])}>
                    <Button type="link" size="small" danger data-testid={`share-revoke-${r.id}`}>
                      取消共享
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      <MoreRows list={list} />
      <EditShareModal share={editing} onClose={() => setEditing(null)} onSaved={changed} />
    </>
  );
}

function LinksTable({ filter, focusId }: { filter: { states: ShareState[]; keyword: string }; focusId: string | null }) {
  const { message } = useFeedback();
  const list = useMyLinks(filter);
  const changed = useSharingChanged();
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<LinkInfo | null>(null);
  const scrolled = useRef<string | null>(null);
  useEffect(() => {
    if (!focusId || scrolled.current === focusId) return;
    const row = document.querySelector(`[data-row-key="${CSS.escape(focusId)}"]`);
    if (!row) return;
    row.scrollIntoView({ block: 'nearest' });
    scrolled.current = focusId;
  }, [focusId, list.items]);
  const revoke = async (ids: string[]) => {
    const r = await revokeLinks(ids);
    message.success(`已取消 ${r.revoked} 个链接`);
    setSelected([]);
    changed();
  };
  return (
    <>
      <Space>
        <Popconfirm title={`取消选中的 ${selected.length} 个链接？`} okText="取消链接" cancelText="返回" disabled={selected.length === 0} onConfirm={() => revoke(selected)}>
          <Button danger disabled={selected.length === 0}>
            批量取消
          </Button>
        </Popconfirm>
      </Space>
      <Table<LinkInfo>
        rowKey="id"
        data-testid="my-links-table"
        loading={list.loading}
        dataSource={list.items}
        pagination={false}
        rowClassName={(r) => (r.id === focusId ? 'ant-table-row-selected' : '')}
        onRow={(r) => (r.id === focusId ? ({ 'data-focused': 'true' } as HTMLAttributes<HTMLElement>) : {})}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), getCheckboxProps: (r) => ({ disabled: r.state === 'revoked' }) }}
        locale={{ emptyText: '暂无链接' }}
        columns={[
          { title: '文件', key: 'file', render: (_: unknown, r) => fileCell(r.file) },
          { title: '提取码', key: 'code', width: 80, render: (_: unknown, r) => r.code ?? '无' },
          { title: '到期时间', key: 'expiresAt', width: 160, render: (_: unknown, r) => (r.expiresAt ? formatDateTime(r.expiresAt) : '永久有效') },
          { title: '访问', key: 'views', width: 70, render: (_: unknown, r) => <span data-testid={`link-views-${r.id}`}>{r.views}</span> },
          {
            title: '下载',
            key: 'downloads',
            width: 90,
            render: (_: unknown, r) => <span data-testid={`link-downloads-${r.id}`}>{r.downloadLimit ? `${r.downloads} / ${r.downloadLimit}` : r.downloads}</span>,
          },
          { title: '方式', key: 'previewOnly', width: 80, render: (_: unknown, r) => (r.previewOnly ? '仅预览' : '可下载') },
          { title: '状态', key: 'state', width: 100, render: (_: unknown, r) => <Tag color={stateColor(r.state)}>{LINK_STATE_LABELS[r.state]}</Tag> },
          {
            title: '操作',
            key: 'actions',
            width: 210,
            render: (_: unknown, r) =>
              r.state === 'revoked' ? null : (
                <Space size={4}>
                  <Tooltip title="复制链接和提取码">
                    <Button type="link" size="small" icon={<CopyOutlined />} aria-label="复制链接和提取码" onClick={() => copyLink(r, message)} data-testid={`link-copy-${r.id}`} />
                  </Tooltip>
                  <Button type="link" size="small" onClick={() => setEditing(r)} data-testid={`link-edit-${r.id}`}>
                    修改
                  </Button>
                  <Popconfirm title="取消这个链接？访问者将立即无法打开。" okText="取消链接" cancelText="返回" onConfirm={() => revoke([r.id])}>
                    <Button type="link" size="small" danger data-testid={`link-revoke-${r.id}`}>
                      取消链接
                    </Button>
                  </Popconfirm>
                </Space>
              ),
          },
        ]}
      />
      <MoreRows list={list} />
      <EditLinkModal link={editing} onClose={() => setEditing(null)} onSaved={changed} />
    </>
  );
}
