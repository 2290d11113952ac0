import { Badge, Button, Drawer, List, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { NETWORK_SIDE_LABELS } from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { processIntercepted, useIntercepted } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';

/**
 * 其他 (the exchange area): the files checkSwap intercepted and that are not dealt with yet, each with
 * its reason. 忽略 takes it off this list (the file stays flagged); 删除 moves it to the recycle bin.
 */
export function InterceptedPanel({ onChanged }: { onChanged: () => void }) {
  const { message } = useFeedback();
  const [open, setOpen] = useState(false);
  const list = useIntercepted();
  const items = list.data ?? [];
  const deal = async (ids: string[], decision: 'dismiss' | 'delete') => {
    await processIntercepted(ids, decision);
    message.success(decision === 'delete' ? '已删除到回收站' : '已忽略');
    void list.refetch();
    onChanged();
  };
  return (
    <>
      <Badge count={items.length} size="small">
        <Button onClick={() => setOpen(true)} data-testid="intercepted-open">
          拦截记录
        </Button>
      </Badge>
      <Drawer open={open} title="被拦截的文件" width={520} onClose={() => setOpen(false)} data-testid="intercepted-drawer">
        <List
          dataSource={items}
          locale={{ emptyText: '没有被拦截的文件' }}
          renderItem={(i) => (
            <List.Item
              actions={[
                <Button key="d" size="small" onClick={() => void deal([i.id], 'dismiss')}>
                  忽略
                </Button>,
                <Popconfirm key="x" title="删除这个文件？" okText="删除" cancelText="取消" onConfirm={() => deal([i.id], 'delete')}>
                  <Button size="small" danger>
                    删除
                  </Button>
                </Popconfirm>,
              ]}
            >
              <List.Item.Meta
                title={i.name}
                description={
                  <Space direction="vertical" size={0}>
                    <span style={{ color: '#cf1322' }}>{i.reason}</span>
                    <span>
                      <Tag>{NETWORK_SIDE_LABELS[i.side]}放入</Tag>
                      {formatDateTime(i.checkedAt)}
                    </span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      </Drawer>
    </>
  );
}
