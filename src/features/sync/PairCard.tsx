import { Button, Card, Empty, Flex, Popconfirm, Segmented, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { formatDateTime } from '../../../common/format/date';
import { formatSize } from '../../../common/format/size';
import type { SyncLists, SyncPairStatus } from '../../../common/sync/types';
import { useFeedback } from '../../lib/feedback/feedback';
import { desktopSync } from './use-desktop-sync';
import { DeletionEvents, HeldDeletesAlert } from './DeletesPanel';
import { LIST_TABS, MODE_LABELS, pairMessage, phaseLabel, summaryText } from './sync-labels';

type ListKey = (typeof LIST_TABS)[number]['key'];

/** Rows shown per list (the lists themselves are bounded by the engine). */
const ROWS = 200;

/** One folder pair: where it stands, what it did, and the lists of spec §3. */
export function PairCard({ status, paused }: { status: SyncPairStatus; paused: boolean }) {
  const { message } = useFeedback();
  const { pair, lists } = status;
  const phase = phaseLabel(status, paused);
  const firstNonEmpty = LIST_TABS.find((t) => lists[t.key].length > 0)?.key ?? 'syncList';
  const [tab, setTab] = useState<ListKey | null>(null);
  const shown: ListKey = tab ?? firstNonEmpty;
  const rows = useMemo(() => lists[shown].slice(0, ROWS), [lists, shown]);
  const sync = desktopSync();
  const act = (run: () => Promise<unknown> | undefined, done?: string) =>
    void Promise.resolve(run()).then(
      () => done && void message.success(done),
      (error: unknown) => void message.error(error instanceof Error ? error.message : String(error)),
    );

  return (
    <Card
      size="small"
      data-testid="sync-pair"
      title={
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text ellipsis={{ tooltip: pair.localDir }} strong>
            {pair.localDir}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis>
            ↔ 同步文件{pair.remotePath} · {MODE_LABELS[pair.mode]}
          </Typography.Text>
        </Flex>
      }
      extra={
        <Tag color={phase.color} data-testid="sync-pair-phase">
          {phase.text}
        </Tag>
      }
    >
      <Flex vertical gap={8}>
        {status.heldDeletes ? (
          <HeldDeletesAlert pairId={pair.id} held={status.heldDeletes} />
        ) : (
          status.message && (
            <Typography.Text type={status.phase === 'error' ? 'danger' : 'warning'} data-testid="sync-pair-message">
              {pairMessage(status)}
            </Typography.Text>
          )
        )}
        <Typography.Text type="secondary" data-testid="sync-pair-summary">
          {lists.allFilepathsLength} 个文件 · 上次同步 {status.lastPassAt ? formatDateTime(status.lastPassAt) : '—'}：{summaryText(status.lastSummary)}
        </Typography.Text>
        <Flex gap={8} wrap>
          <Button size="small" onClick={() => act(() => sync?.updatePair(pair.id, { paused: !pair.paused }))} data-testid="sync-pair-pause">
            {pair.paused ? '继续' : '暂停'}
          </Button>
          <Button size="small" onClick={() => act(() => sync?.openFolder(pair.id))}>
            打开文件夹
          </Button>
          <Popconfirm title="停止同步这个文件夹？" description="两边的文件都不会被删除。" okText="停止同步" cancelText="取消" onConfirm={() => act(() => sync?.removePair(pair.id), '已停止同步')}>
            <Button size="small" danger data-testid="sync-pair-remove">
              停止同步
            </Button>
          </Popconfirm>
        </Flex>
        <DeletionEvents pairId={pair.id} events={status.deletions ?? []} />
        <Segmented
          size="small"
          value={shown}
          onChange={(v) => setTab(v as ListKey)}
          options={LIST_TABS.map((t) => ({ value: t.key, label: `${t.label} ${lists[t.key as keyof SyncLists] instanceof Array ? (lists[t.key] as unknown[]).length : ''}` }))}
          data-testid="sync-list-tabs"
        />
        {rows.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有文件" />
        ) : (
          <ul style={{ listStyle: 'none', margin: 0, padding: 0, maxHeight: 240, overflow: 'auto' }} data-testid={`sync-list-${shown}`}>
            {rows.map((item) => (
              <li key={`${item.path}|${item.at}`} style={{ padding: '4px 0', borderBottom: '1px solid #f0f0f0' }}>
                <Flex justify="space-between" gap={8}>
                  <Typography.Text ellipsis={{ tooltip: item.path }} style={{ minWidth: 0 }}>
                    {item.path}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
                    {item.action}
                    {item.size > 0 && ` · ${item.state === 'uploading' || item.state === 'downloading' ? `${formatSize(item.bytesDone)}/` : ''}${formatSize(item.size)}`}
                  </Typography.Text>
                </Flex>
                {item.reason && (
                  <Typography.Text type="danger" style={{ fontSize: 12 }}>
                    {item.reason}
                  </Typography.Text>
                )}
              </li>
            ))}
          </ul>
        )}
      </Flex>
    </Card>
  );
}
