import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Input, Popconfirm, Segmented, Space, Spin, Tag } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import type { ManagedNoticeListRequest } from '../../../common/api/endpoints/notices';
import { NOTICE_STATE_LABELS, type ManagedNotice, type NoticeState } from '../../../common/api/notices';
import { formatDateTime } from '../../../common/format/date';
import { OnlineOnly } from '../../components/OnlineOnly';
import { VirtualRows } from '../../components/VirtualRows';
import { lazyWhenOpen } from '../../components/lazy-when-open';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';
import { usePhone } from '../../lib/use-phone';
import { deleteNotice, pinNotice, useManagedNotices, usePlatformAdmin, withdrawNotice } from './notice-manage-api';
import { NoticeTags } from './SystemNoticePage';
import './notices.css';

const NoticeFormDrawer = lazyWhenOpen(() => import('./NoticeFormDrawer').then((m) => m.NoticeFormDrawer), (p) => p.open);
const NoticeReadersDrawer = lazyWhenOpen(() => import('./NoticeReadersDrawer').then((m) => m.NoticeReadersDrawer), (p) => p.notice !== null);

const ROW_HEIGHT = 72;
const STATE_COLORS: Record<NoticeState, string> = { draft: 'default', scheduled: 'orange', published: 'green', withdrawn: 'default' };

/**
 * Spec §2 `/main/system/notice` (公告管理, admins): write notices for the whole tenant, departments or
 * people, publish now or at a time, pin, withdraw, delete; each shows 已读 X / 应读 N, which opens
 * who read it and who has not (阅读情况).
 */
/** 已读 X / 应读 N reads as part of the line; it opens the reader list. */
const COUNT_STYLE = { padding: 0, height: 'auto', fontSize: 'inherit' } as const;
/** On a phone its box (16 px of text) grows to a finger's size (38 px) without moving the line: the padding is given back as a negative margin. */
const PHONE_COUNT_STYLE = { ...COUNT_STYLE, padding: '11px 0', margin: '-11px 0' } as const;

export function NoticeManagePage() {
  const { message } = useFeedback();
  const online = useOnline();
  const platformAdmin = usePlatformAdmin();
  const phone = usePhone();
  const [state, setState] = useState<NoticeState | 'all'>('all');
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<{ notice: ManagedNotice | null } | null>(null);
  const [reading, setReading] = useState<ManagedNotice | null>(null);
  const req = useMemo((): ManagedNoticeListRequest => ({ ...(state === 'all' ? {} : { state }), ...(keyword.trim() ? { keyword: keyword.trim() } : {}) }), [state, keyword]);
  const query = useManagedNotices(req);
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const loadMore = useCallback(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, [query]);
  const run = (p: Promise<void>, done: string) => void p.then(() => message.success(done), (e: unknown) => message.error(e instanceof Error && e.message ? e.message : '操作失败'));

  return (
    <Card
      title="公告管理"
      data-testid="notice-manage-page"
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: 'calc(100vh - 190px)', minHeight: 420 } }}
      extra={
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} disabled={!online}>
            刷新
          </Button>
          <OnlineOnly>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ notice: null })} data-testid="notice-new">
              新建公告
            </Button>
          </OnlineOnly>
        </Space>
      }
    >
      <Space wrap>
        <Segmented
          value={state}
          onChange={(v) => setState(v as NoticeState | 'all')}
          options={[{ label: '全部', value: 'all' }, ...(Object.entries(NOTICE_STATE_LABELS) as Array<[NoticeState, string]>).map(([value, label]) => ({ label, value }))]}
        />
        <Input.Search placeholder="搜索标题或内容" allowClear onSearch={setKeyword} style={{ width: 240 }} maxLength={100} />
      </Space>
      {query.isError && items.length === 0 && <Alert type="error" showIcon title="公告加载失败，请稍后重试" />}
      <VirtualRows
        count={items.length}
        rowHeight={ROW_HEIGHT}
        onNearEnd={query.hasNextPage ? loadMore : undefined}
        testId="notice-manage-list"
        role="table"
        label="公告"
        empty={query.isLoading ? <Spin style={{ margin: 24 }} /> : <div className="nt-empty">还没有公告，点击“新建公告”开始</div>}
        renderRow={(i, style) => {
          const n = items[i]!;
          const when = n.publishAt ? `${n.state === 'scheduled' ? '将于' : '发布于'} ${formatDateTime(n.publishAt)}` : `保存于 ${formatDateTime(n.updatedAt)}`;
          const audience = n.platform ? '全平台' : n.audience.all ? '全体成员' : `${n.audience.departmentIds.length} 个部门、${n.audience.userIds.length} 人`;
          return (
            <div key={n.id} role="row" className="nt-row" style={{ ...style, cursor: 'default' }} data-testid="managed-notice">
              <span role="cell" className="nt-text">
                <span className="nt-title">
                  <Tag color={STATE_COLORS[n.state]}>{NOTICE_STATE_LABELS[n.state]}</Tag>
                  <NoticeTags notice={n} />
                  {n.title}
                </span>
                <span className="nt-meta">
                  {when} · {audience} ·{' '}
                  <Button type="link" size="small" style={phone ? PHONE_COUNT_STYLE : COUNT_STYLE} onClick={() => setReading(n)} data-testid="notice-read-count">
                    已读 {n.readCount} / 应读 {n.audienceSize}
                  </Button>{' '}
                  · {n.author.nickName}
                </span>
              </span>
              <Space role="cell" size={4} wrap={false}>
                <OnlineOnly>
                  <Button size="small" type="link" onClick={() => setEditing({ notice: n })}>
                    编辑
                  </Button>
                </OnlineOnly>
                {n.state !== 'withdrawn' && (
                  <OnlineOnly>
                    <Button size="small" type="link" onClick={() => run(pinNotice(n.id, !n.pinned), n.pinned ? '已取消置顶' : '已置顶')}>
                      {n.pinned ? '取消置顶' : '置顶'}
                    </Button>
                  </OnlineOnly>
                )}
                {(n.state === 'published' || n.state === 'scheduled') && (
                  <Popconfirm title="撤回后接收者将看不到这条公告，确定撤回？" onConfirm={() => run(withdrawNotice(n.id), '已撤回')} okText="撤回" cancelText="取消">
                    <Button size="small" type="link" disabled={!online}>
                      撤回
                    </Button>
                  </Popconfirm>
                )}
                <Popconfirm title="删除后无法恢复，确定删除？" onConfirm={() => run(deleteNotice(n.id), '已删除')} okText="删除" okButtonProps={{ danger: true }} cancelText="取消">
                  <Button size="small" type="link" danger disabled={!online}>
                    删除
                  </Button>
                </Popconfirm>
              </Space>
            </div>
          );
        }}
      />
      <NoticeReadersDrawer notice={reading} onClose={() => setReading(null)} />
      <NoticeFormDrawer open={editing !== null} notice={editing?.notice ?? null} platformAdmin={platformAdmin} onClose={() => setEditing(null)} />
    </Card>
  );
}
