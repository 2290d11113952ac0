import { Button, Divider, Empty, Flex, InputNumber, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import type { SyncStatus } from '../../../common/sync/types';
import { useFeedback } from '../../lib/feedback/feedback';
import { AddPairForm } from './AddPairForm';
import { PairCard } from './PairCard';
import { bytesToKb, kbToBytes } from './sync-labels';
import { desktopSync } from './use-desktop-sync';

/**
 * 本机同步 (desktop only): the folder pairs with their state and lists, pause / resume / sync now,
 * adding a pair, and the settings (bandwidth limits, start at login). Everything goes through the
 * desktop bridge; the engine itself runs in the desktop's sync process.
 */
export function SyncPanel({ status }: { status: SyncStatus | null; open?: boolean }) {
  const { message } = useFeedback();
  const [adding, setAdding] = useState(false);
  const sync = desktopSync();
  const [up, setUp] = useState<number | null>(null);
  const [down, setDown] = useState<number | null>(null);
  useEffect(() => {
    if (!status) return;
    setUp(bytesToKb(status.settings.uploadLimit));
    setDown(bytesToKb(status.settings.downloadLimit));
  }, [status?.settings.uploadLimit, status?.settings.downloadLimit]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!sync) return null;
  const run = (p: Promise<unknown>) => void p.catch((error: unknown) => void message.error(error instanceof Error ? error.message : String(error)));

  if (!status) return <Typography.Text type="secondary">正在读取同步状态…</Typography.Text>;
  const noPairs = status.pairs.length === 0;
  return (
    <Flex vertical gap={12} data-testid="sync-panel">
      <Flex gap={8} wrap>
        <Button type="primary" onClick={() => setAdding(true)} disabled={adding} data-testid="sync-add">
          添加同步文件夹
        </Button>
        <Button onClick={() => run(sync.setPaused(!status.paused))} disabled={noPairs} data-testid="sync-pause-all">
          {status.paused ? '全部继续' : '全部暂停'}
        </Button>
        <Button onClick={() => run(sync.syncNow())} disabled={noPairs || status.paused} data-testid="sync-now">
          立即同步
        </Button>
      </Flex>
      {adding && <AddPairForm onDone={() => setAdding(false)} />}
      {noPairs && !adding && <Empty description="还没有同步文件夹：把本机的文件夹和同步文件中的文件夹配对，两边就会保持一致" />}
      {status.pairs.map((p) => (
        <PairCard key={p.pair.id} status={p} paused={status.paused} />
      ))}
      <Divider style={{ margin: '4px 0' }}>设置</Divider>
      <Flex gap={16} wrap align="center">
        <label>
          上传限速{' '}
          <InputNumber min={0} value={up} onChange={setUp} onBlur={() => run(sync.setSettings({ uploadLimit: kbToBytes(up) }))} addonAfter="KB/s" placeholder="不限" style={{ width: 160 }} data-testid="sync-up-limit" />
        </label>
        <label>
          下载限速{' '}
          <InputNumber min={0} value={down} onChange={setDown} onBlur={() => run(sync.setSettings({ downloadLimit: kbToBytes(down) }))} addonAfter="KB/s" placeholder="不限" style={{ width: 160 }} data-testid="sync-down-limit" />
        </label>
        <label>
          开机时启动 <Switch checked={status.settings.startAtLogin} onChange={(on) => run(sync.setSettings({ startAtLogin: on }))} data-testid="sync-start-at-login" />
        </label>
      </Flex>
      <Typography.Text type="secondary">0 表示不限速。完整同步每 {Math.round(status.settings.intervalMs / 60_000)} 分钟一次（管理员设置），文件夹有变化时会立即同步。</Typography.Text>
    </Flex>
  );
}
