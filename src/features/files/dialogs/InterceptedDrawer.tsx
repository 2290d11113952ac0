import { Button, Drawer, List, Popconfirm, Space, Tag } from 'antd';
import { NETWORK_SIDE_LABELS, type InterceptedFile } from '../../../../common/api/sharing';
import { formatDateTime } from '../../../../common/format/date';

export interface InterceptedDrawerProps {
  open: boolean;
  items: InterceptedFile[];
  onClose: () => void;
  onDeal: (ids: string[], decision: 'dismiss' | 'delete') => Promise<void>;
}

/** The intercepted files, each with its reason, 忽略 and 删除 (InterceptedPanel opens it). */
export function InterceptedDrawer({ open, items, onClose, onDeal }: InterceptedDrawerProps) {
  return (
    <Drawer open={open} title="被拦截的文件" width={520} onClose={onClose} data-testid="intercepted-drawer">
      <List
        dataSource={items}
        locale={{ emptyText: '没有被拦截的文件' }}
        renderItem={(i) => (
          <List.Item
            actions={[
              <Button key="d" size="small" onClick={() => void onDeal([i.id], 'dismiss')}>
                忽略
              </Button>,
              <Popconfirm key="x" title="删除这个文件？" okText="删除" cancelText="取消" onConfirm={() => onDeal([i.id], 'delete')}>
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
  );
}
