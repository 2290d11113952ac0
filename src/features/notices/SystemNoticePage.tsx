import { CheckOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Drawer, Input, Select, Space, Spin, Tag, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import type { SystemNoticeListRequest } from '../../../common/api/endpoints/notices';
import type { SystemNotice } from '../../../common/api/notices';
import { formatDateTime } from '../../../common/format/date';
import { OnlineOnly } from '../../components/OnlineOnly';
import { VirtualRows } from '../../components/VirtualRows';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';
import { markAllSystemNoticesRead, markSystemNoticesRead } from '../../lib/notices/notice-actions';
import { useSystemNotices, useUnreadCounts } from '../../lib/notices/notice-data';
import { NoticeContent } from './NoticeContent';
import './notices.css';

const ROW_HEIGHT = 68;

export function NoticeTags({ notice }: { notice: Pick<SystemNotice, 'pinned' | 'important' | 'platform'> }) {
  return (
    <>
      {notice.pinned && <Tag color="blue">置顶</Tag>}
      {notice.important && <Tag color="red">重要</Tag>}
      {notice.platform && <Tag>平台公告</Tag>}
    </>
  );
}

/**
 * Spec §2 `/main/notice/systemNotice`: the notices addressed to the caller (pinned first, newest
 * next), unread ones marked; opening one shows it whole and marks it read (offline too: replayed).
 */
export function SystemNoticePage() {
  const { message } = useFeedback();
  const online = useOnline();
  const counts = useUnreadCounts();
  const [read, setRead] = useState<'all' | 'unread' | 'read'>('all');
  const [keyword, setKeyword] = useState('');
  const [open, setOpen] = useState<SystemNotice | null>(null);
  const req = useMemo((): SystemNoticeListRequest => ({ ...(read === 'all' ? {} : { read: read === 'read' }), ...(keyword.trim() ? { keyword: keyword.trim() } : {}) }), [read, keyword]);
  const query = useSystemNotices(req);
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const loadMore = useCallback(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, [query]);
  const failed = () => void message.error('操作失败，请稍后重试');

  const show = (n: SystemNotice) => {
    setOpen(n);
    if (!n.read) void markSystemNoticesRead([n.id]).catch(failed);
  };

  return (
    <Card
      title={`系统消息${counts.system > 0 ? `（${counts.system} 条未读）` : ''}`}
      data-testid="system-notice-page"
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: 'calc(100vh - 190px)', minHeight: 420 } }}
      extra={
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} disabled={!online}>
            刷新
          </Button>
          <OnlineOnly>
            <Button icon={<CheckOutlined />} onClick={() => void markAllSystemNoticesRead().catch(failed)} disabled={counts.system === 0} data-testid="system-mark-all-read">
              全部已读
            </Button>
          </OnlineOnly>
        </Space>
      }
    >
      <Space wrap>
        <Select
          value={read}
          onChange={setRead}
          style={{ width: 110 }}
          aria-label="已读状态"
          options={[
            { value: 'all', label: '全部状态' },
            { value: 'unread', label: '未读' },
            { value: 'read', label: '已读' },
          ]}
        />
        <Input.Search placeholder="搜索标题或内容" allowClear onSearch={setKeyword} style={{ width: 240 }} maxLength={100} />
      </Space>
      {query.isError && items.length === 0 && <Alert type="error" showIcon title="系统消息加载失败，请稍后重试" />}
      <VirtualRows
        count={items.length}
        rowHeight={ROW_HEIGHT}
        onNearEnd={query.hasNextPage ? loadMore : undefined}
        testId="system-notice-list"
        role="table"
        label="系统消息"
        empty={query.isLoading ? <Spin style={{ margin: 24 }} /> : <div className="nt-empty">暂无系统消息</div>}
        renderRow={(i, style) => {
          const n = items[i]!;
          return (
            <div key={n.id} role="row" className={`nt-row${n.read ? '' : ' nt-unread'}`} style={style} onClick={() => show(n)} data-testid="system-notice" data-read={n.read ? '1' : '0'}>
              <span role="cell" className="nt-dot" aria-label={n.read ? '已读' : '未读'} />
              <span role="cell" className="nt-text">
                <span className="nt-title">
                  <NoticeTags notice={n} />
                  {n.title}
                </span>
                <span className="nt-meta">
                  {formatDateTime(n.publishedAt)} · {n.author.nickName} · {n.summary}
                </span>
              </span>
            </div>
          );
        }}
      />
      <Drawer open={open !== null} onClose={() => setOpen(null)} size={640} title={open?.title} data-testid="system-notice-drawer">
        {open && (
          <>
            <Typography.Paragraph type="secondary">
              <NoticeTags notice={open} />
              {open.author.nickName} 发布于 {formatDateTime(open.publishedAt)}
            </Typography.Paragraph>
            <NoticeContent html={open.content} testId="system-notice-content" />
          </>
        )}
      </Drawer>
    </Card>
  );
}
