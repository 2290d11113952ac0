import { Avatar, Drawer, Empty, Segmented, Spin, Tag } from 'antd';
import { useMemo, useState } from 'react';
import type { ManagedNotice } from '../../../common/api/notices';
import { formatDateTime } from '../../../common/format/date';
import { departmentPath, DISPLAY_PATH_SEPARATOR } from '../../../common/org/tree';
import { VirtualRows } from '../../components/VirtualRows';
import { useOrgTree } from '../../lib/data/org';
import { useNoticeReaders } from './notice-manage-api';

const ROW = 52;
type Filter = 'unread' | 'read' | 'all';

/**
 * 阅读情况 of a notice (公告管理): 已读 X / 应读 N, then the people it is addressed to — who has not
 * read it (first: whom to remind), who has and when, or everyone — by account, in keyset pages.
 */
export function NoticeReadersDrawer({ notice, onClose }: { notice: ManagedNotice | null; onClose: () => void }) {
  const [filter, setFilter] = useState<Filter>('unread');
  const readers = useNoticeReaders(notice?.id ?? null, filter === 'all' ? undefined : filter === 'read');
  const tree = useOrgTree();
  const items = useMemo(() => readers.data?.pages.flatMap((p) => p.items) ?? [], [readers.data]);
  const first = readers.data?.pages[0];
  const audience = first?.audience ?? notice?.audienceSize ?? 0;
  const read = first?.read ?? notice?.readCount ?? 0;
  return (
    <Drawer open={notice !== null} onClose={onClose} title={`阅读情况：${notice?.title ?? ''}`} size={520} destroyOnHidden data-testid="notice-readers">
      <div style={{ display: 'flex', flexDirection: 'column', gap: 12, height: '100%' }}>
        <div data-testid="notice-readers-summary">
          已读 <strong>{read}</strong> / 应读 <strong>{audience}</strong> 人{notice?.platform ? '（本企业）' : ''}
        </div>
        <Segmented<Filter>
          value={filter}
          onChange={setFilter}
          options={[
            { value: 'unread', label: `未读 ${audience - read}` },
            { value: 'read', label: `已读 ${read}` },
            { value: 'all', label: `全部 ${audience}` },
          ]}
          data-testid="notice-readers-filter"
        />
        {readers.isPending ? (
          <Spin style={{ margin: 24 }} />
        ) : (
          <VirtualRows
            testId="notice-readers-list"
            role="list"
            label="阅读情况"
            count={items.length}
            rowHeight={ROW}
            onNearEnd={() => {
              if (readers.hasNextPage && !readers.isFetchingNextPage) void readers.fetchNextPage();
            }}
            empty={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={filter === 'unread' ? '所有人都已读' : filter === 'read' ? '还没有人读过' : '没有接收人'} />}
            renderRow={(i, style) => {
              const r = items[i]!;
              return (
                <div key={r.id} role="listitem" data-testid={`reader-${r.website}`} style={{ ...style, display: 'flex', alignItems: 'center', gap: 10, padding: '0 4px', borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
                  <Avatar size={32}>{r.nickName.slice(0, 1)}</Avatar>
                  <div style={{ flex: 1, minWidth: 0 }}>
                    <div style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      <strong>{r.nickName}</strong> <span style={{ color: 'rgba(0,0,0,0.6)' }}>{r.website}</span>
                    </div>
                    <div style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {r.departmentId && tree.index ? departmentPath(tree.index, r.departmentId, DISPLAY_PATH_SEPARATOR) : ''}
                    </div>
                  </div>
                  {r.readAt === null ? (
                    <Tag>未读</Tag>
                  ) : (
                    <span style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12 }} title="阅读时间">
                      {formatDateTime(r.readAt)} 已读
                    </span>
                  )}
                </div>
              );
            }}
          />
        )}
      </div>
    </Drawer>
  );
}
