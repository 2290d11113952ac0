import { CaretRightOutlined, CloseOutlined, PauseOutlined, RedoOutlined } from '@ant-design/icons';
import { Button, Progress, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatSize } from '../../../common/format/size';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { commandsFor, formatEta, STATE_LABELS, type TransferCommand } from './state-labels';

const COMMANDS: Record<TransferCommand, { label: string; icon: ReactNode }> = {
  pause: { label: '暂停', icon: <PauseOutlined /> },
  resume: { label: '继续', icon: <CaretRightOutlined /> },
  cancel: { label: '取消', icon: <CloseOutlined /> },
  retry: { label: '重试', icon: <RedoOutlined /> },
};

function progressStatus(item: TransferItemView): 'success' | 'exception' | 'active' | 'normal' {
  if (item.state === 'done') return 'success';
  if (item.state === 'failed') return 'exception';
  if (item.state === 'uploading' || item.state === 'hashing' || item.state === 'checking') return 'active';
  return 'normal';
}

function percentOf(item: TransferItemView): number {
  if (item.state === 'done') return 100;
  if (item.state === 'hashing' && item.hashedBytes !== undefined && item.size > 0) return Math.floor((item.hashedBytes / item.size) * 100);
  return item.size > 0 ? Math.floor((item.bytesDone / item.size) * 100) : 0;
}

export function TransferItemRow({ item, onCommand }: { item: TransferItemView; onCommand: (command: TransferCommand, id: string) => void }) {
  const active = item.state === 'uploading' && item.speed > 0;
  return (
    <div data-testid="transfer-item" data-state={item.state} data-id={item.id} style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }} title={item.name}>
          {item.name}
        </Typography.Text>
        {commandsFor(item.state).map((command) => (
          <Tooltip key={command} title={COMMANDS[command].label}>
            <Button size="small" type="text" icon={COMMANDS[command].icon} aria-label={COMMANDS[command].label} data-testid={`transfer-${command}`} onClick={() => onCommand(command, item.id)} />
          </Tooltip>
        ))}
      </div>
      <Progress percent={percentOf(item)} size="small" status={progressStatus(item)} />
      <div style={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>
        <span>
          {formatSize(item.bytesDone)}/{formatSize(item.size)}
        </span>
        <span data-testid="transfer-state">{item.state === 'hashing' ? `${STATE_LABELS.hashing}…` : STATE_LABELS[item.state]}</span>
        <span>{active ? `${formatSize(item.speed)}/s · 剩余 ${formatEta(item.etaSeconds)}` : ''}</span>
      </div>
      {item.lastError && (item.state === 'failed' || item.state === 'held' || item.state === 'retrying') && (
        <Typography.Text type="danger" style={{ fontSize: 12 }}>
          {item.lastError}
        </Typography.Text>
      )}
    </div>
  );
}
