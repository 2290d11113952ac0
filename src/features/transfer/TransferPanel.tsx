import { DownOutlined, SwapOutlined, UpOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { useCallback, useState } from 'react';
import { formatSize } from '../../../common/format/size';
import { getEngine } from './engine-client';
import type { TransferCommand } from './state-labels';
import { TransferItemRow } from './TransferItemRow';
import { transferSnapshotAtom } from './transfer-atoms';
import { useTransferEngine } from './use-transfer-engine';

/** The spec §3 uploader tip, shown by default. */
export const UPLOADER_TIP = '禁止上传或分享涉密文件，以及法律法规规定不得公开的信息。';

/** '传输列表': every upload of the engine, with its progress and controls. Owns the engine connection. */
export function TransferPanel() {
  const snapshot = useAtomValue(transferSnapshotAtom);
  const [expanded, setExpanded] = useState(true);
  const expand = useCallback(() => setExpanded(true), []);
  useTransferEngine(expand);

  const onCommand = (command: TransferCommand, id: string): void => {
    void getEngine()[command](id);
  };

  const items = [...snapshot.items].sort((a, b) => b.createdAt - a.createdAt);
  const running = items.filter((i) => i.state !== 'done' && i.state !== 'cancelled').length;

  return (
    <aside
      data-testid="transfer-panel"
      aria-label="传输列表"
      style={{ width: expanded ? 340 : 44, flex: 'none', background: '#fff', borderInlineStart: '1px solid #f0f0f0', display: 'flex', flexDirection: 'column', minHeight: 0, transition: 'width .2s' }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '12px', borderBottom: '1px solid #f0f0f0' }}>
        <Button type="text" size="small" icon={expanded ? <DownOutlined rotate={-90} /> : <UpOutlined rotate={-90} />} onClick={() => setExpanded((e) => !e)} aria-label={expanded ? '收起传输列表' : '展开传输列表'} />
        {expanded && (
          <>
            <SwapOutlined />
            <Typography.Text strong style={{ flex: 1 }}>
              传输列表{running > 0 ? `（${running}）` : ''}
            </Typography.Text>
            <Button size="small" type="link" onClick={() => void getEngine().clearFinished()} disabled={items.length === running}>
              清除已完成
            </Button>
          </>
        )}
      </div>
      {expanded && (
        <div style={{ padding: '8px 12px', overflow: 'auto', flex: 1, minHeight: 0 }}>
          <Alert type="warning" showIcon title={UPLOADER_TIP} style={{ marginBottom: 8 }} data-testid="uploader-tip" />
          {snapshot.speed > 0 && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              总速度 {formatSize(snapshot.speed)}/s · {formatSize(snapshot.doneBytes)}/{formatSize(snapshot.totalBytes)}
            </Typography.Text>
          )}
          {items.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无传输任务" /> : items.map((item) => <TransferItemRow key={item.id} item={item} onCommand={onCommand} />)}
        </div>
      )}
    </aside>
  );
}
