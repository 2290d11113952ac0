import { Alert, Button, Collapse, Flex, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../common/format/date';
import type { DeletionEvent, HeldDeletes } from '../../../common/sync/types';
import { useFeedback } from '../../lib/feedback/feedback';
import { deletionLine, heldItemLine, restoreText } from './sync-labels';
import { desktopSync } from './use-desktop-sync';

/**
 * Deletes that wait for the person (确认删除 confirms exactly the list shown: its token goes along),
 * and the recent deletion events, each restorable in one action (恢复).
 */
export function HeldDeletesAlert({ pairId, held }: { pairId: string; held: HeldDeletes }) {
  const { message } = useFeedback();
  const [busy, setBusy] = useState(false);
  const total = held.localFiles + held.remoteFiles;
  const confirm = () => {
    setBusy(true);
    void desktopSync()
      ?.confirmDeletes(pairId, held.token)
      .then(
        () => void message.success('已确认，正在删除'),
        (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="sync-held-deletes"
      message={held.wholePass ? '同步已暂停，等待确认删除' : '删除等待确认'}
      description={
        <Flex vertical gap={8}>
          <Typography.Text>{held.reason}</Typography.Text>
          <ul style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 160, overflow: 'auto' }} data-testid="sync-held-list">
            {held.items.map((item) => (
              <li key={`${item.side}|${item.path}`}>
                <Typography.Text ellipsis={{ tooltip: item.path }}>{heldItemLine(item)}</Typography.Text>
              </li>
            ))}
            {held.items.length < total && <li>…</li>}
          </ul>
          <Typography.Text type="secondary">不确认就不会删除任何文件。如果这些文件不该被删，把它们放回原处，下次同步会照常进行。</Typography.Text>
          <Flex gap={8}>
            <Popconfirm title={`确认删除这 ${total} 个文件？`} description="云端的文件会移入回收站，本机的文件会保留一段时间，删除后可在“最近删除”中一次恢复。" okText="确认删除" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={confirm}>
              <Button danger size="small" loading={busy} data-testid="sync-confirm-deletes">
                确认删除
              </Button>
            </Popconfirm>
          </Flex>
        </Flex>
      }
    />
  );
}

export function DeletionEvents({ pairId, events }: { pairId: string; events: DeletionEvent[] }) {
  const { message } = useFeedback();
  const [busy, setBusy] = useState<string | null>(null);
  if (events.length === 0) return null;
  const restore = (event: DeletionEvent) => {
    setBusy(event.id);
    void desktopSync()
      ?.restoreDeletion(pairId, event.id)
      .then(
        (outcome) => {
          if (outcome.failed.length === 0) void message.success(restoreText(outcome));
          else void message.warning(`${restoreText(outcome)}：${outcome.failed.map((f) => `${f.path}（${f.reason}）`).join('；')}`);
        },
        (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => setBusy(null));
  };
  return (
    <Collapse
      size="small"
      data-testid="sync-deletions"
      items={[
        {
          key: 'deletions',
          label: `最近删除（${events.length}）`,
          children: (
            <Flex vertical gap={8}>
              {events.map((event) => (
                <Flex key={event.id} vertical gap={4} data-testid="sync-deletion" style={{ borderBottom: '1px solid #f0f0f0', paddingBottom: 6 }}>
                  <Flex justify="space-between" align="center" gap={8}>
                    <Typography.Text>
                      {formatDateTime(event.at)} · {deletionLine(event)}
                    </Typography.Text>
                    <Popconfirm title="恢复这次删除的全部文件？" description="云端的从回收站恢复，本机的放回原处，然后再同步一次。" okText="恢复" cancelText="取消" onConfirm={() => restore(event)}>
                      <Button size="small" loading={busy === event.id} data-testid="sync-restore-deletion">
                        恢复
                      </Button>
                    </Popconfirm>
                  </Flex>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }} ellipsis={{ tooltip: event.items.map((i) => i.path).join('\n') }}>
                    {event.items.map((i) => i.path).join('、')}
                    {event.items.length < event.local + event.remote ? ' …' : ''}
                  </Typography.Text>
                </Flex>
              ))}
            </Flex>
          ),
        },
      ]}
    />
  );
}
