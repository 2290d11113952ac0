import { CheckOutlined, DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Card, DatePicker, Input, Segmented, Select, Space, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useLocation } from 'wouter';
import type { FileMessageListForm } from '../../../common/api/endpoints/notices';
import { FILE_MESSAGE_CATEGORIES, type FileMessage, type FileMessageCategory } from '../../../common/api/notices';
import { OnlineOnly } from '../../components/OnlineOnly';
import { VirtualRows } from '../../components/VirtualRows';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';
import { targetUrl } from '../../lib/notices/message-links';
import { deleteFileMessages, markAllFileMessagesRead, markFileMessagesRead } from '../../lib/notices/notice-actions';
import { useFileMessages, useUnreadCounts } from '../../lib/notices/notice-data';
import { FileMessageRow } from './FileMessageRow';
import './notices.css';

const ROW_HEIGHT = 64;
type Category = FileMessageCategory | 'all';
type ReadFilter = 'all' | 'unread' | 'read';

const CATEGORY_OPTIONS = [{ label: '全部', value: 'all' }, ...Object.entries(FILE_MESSAGE_CATEGORIES).map(([value, c]) => ({ label: c.label, value }))];

/**
 * Spec §2 `/main/notice/fileNotice`: the caller's file messages, newest first (keyset pages through
 * the data layer: the last lists show offline), by category, read state, time and keyword. Opening a
 * message marks it read (offline too: replayed) and goes to its file — the folder, with the file
 * selected — or to its application.
 */
export function FileNoticePage() {
  const { message } = useFeedback();
  const [, navigate] = useLocation();
  const online = useOnline();
  const counts = useUnreadCounts();
  const [category, setCategory] = useState<Category>('all');
  const [read, setRead] = useState<ReadFilter>('all');
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const form = useMemo((): FileMessageListForm => {
    const f: FileMessageListForm = {};
    if (category !== 'all') f.category = category;
    if (read !== 'all') f.read = read === 'unread' ? '0' : '1';
    if (range?.[0]) f.from = String(range[0].startOf('day').valueOf());
    if (range?.[1]) f.to = String(range[1].endOf('day').valueOf() + 1);
    if (keyword.trim()) f.keyword = keyword.trim();
    return f;
  }, [category, read, range, keyword]);
  const query = useFileMessages(form);
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const loadMore = useCallback(() => {
    if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  }, [query]);

  const failed = (e: unknown) => void message.error(e instanceof Error && e.message ? e.message : '操作失败，请稍后重试');
  const open = async (m: FileMessage) => {
    if (!m.read) await markFileMessagesRead([m.id]).catch(failed);
    const url = targetUrl(m.target);
    if (url) navigate(url);
    else if (m.file && !m.file.available) void message.info('你已无权查看该文件，或它已被彻底删除');
    else if (m.type === 'file.deleted') void message.info('文件已被删除');
    // A held upload whose folder is gone (or a message from before it named one): say what to do.
    else if (m.type === 'upload.sensitive') void message.info('该文件名含有敏感词，文件未上传：请在传输列表中重命名后上传，或将其移除');
  };
  const chosen = items.filter((m) => selected.has(m.id));
  const markSelected = async () => {
    await markFileMessagesRead(chosen.filter((m) => !m.read).map((m) => m.id)).catch(failed);
    setSelected(new Set());
  };
  const deleteSelected = async () => {
    await deleteFileMessages(chosen.map((m) => m.id)).then(() => message.success(`已删除 ${chosen.length} 条消息`), failed);
    setSelected(new Set());
  };
  const markAll = async () => {
    await markAllFileMessagesRead().then(() => message.success(online ? '已全部标为已读' : '已标为已读，联网后同步'), failed);
  };

  return (
    <Card
      title={`文件消息${counts.file > 0 ? `（${counts.file} 条未读）` : ''}`}
      data-testid="file-notice-page"
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 12, height: 'calc(100vh - 190px)', minHeight: 420 } }}
      extra={
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} disabled={!online}>
            刷新
          </Button>
          <Button icon={<CheckOutlined />} onClick={() => void markAll()} disabled={counts.file === 0 && !items.some((m) => !m.read)} data-testid="mark-all-read">
            全部已读
          </Button>
        </Space>
      }
    >
      <Segmented options={CATEGORY_OPTIONS} value={category} onChange={(v) => (setCategory(v as Category), setSelected(new Set()))} data-testid="message-category" />
      <Space wrap>
        <Select
          value={read}
          onChange={(v) => setRead(v)}
          style={{ width: 110 }}
          options={[
            { value: 'all', label: '全部状态' },
            { value: 'unread', label: '未读' },
            { value: 'read', label: '已读' },
          ]}
          aria-label="已读状态"
        />
        <DatePicker.RangePicker value={range} onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)} allowEmpty={[true, true]} aria-label="时间范围" />
        <Input.Search placeholder="搜索文件名或操作人" allowClear onSearch={setKeyword} style={{ width: 240 }} maxLength={100} data-testid="message-search" />
        {chosen.length > 0 && (
          <>
            <Button onClick={() => void markSelected()} data-testid="mark-selected-read">
              标为已读（{chosen.length}）
            </Button>
            <OnlineOnly>
              <Button danger icon={<DeleteOutlined />} onClick={() => void deleteSelected()} data-testid="delete-selected">
                删除（{chosen.length}）
              </Button>
            </OnlineOnly>
          </>
        )}
      </Space>
      {query.isError && items.length === 0 && <Alert type="error" showIcon title="消息加载失败，请稍后重试" />}
      <VirtualRows
        count={items.length}
        rowHeight={ROW_HEIGHT}
        onNearEnd={query.hasNextPage ? loadMore : undefined}
        testId="file-message-list"
        role="table"
        label="文件消息"
        empty={query.isLoading ? <Spin style={{ margin: 24 }} /> : <div className="nt-empty">{keyword ? '没有找到相关消息' : '暂无消息'}</div>}
        renderRow={(i, style) => {
          const m = items[i]!;
          return (
            <FileMessageRow
              key={m.id}
              message={m}
              style={style}
              selected={selected.has(m.id)}
              onSelect={(checked) => setSelected((s) => {
                const next = new Set(s);
                if (checked) next.add(m.id);
                else next.delete(m.id);
                return next;
              })}
              onOpen={() => void open(m)}
            />
          );
        }}
      />
    </Card>
  );
}
