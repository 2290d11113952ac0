import { Button, Drawer, Empty, Input, List, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../../common/format/date';
import { useOnline } from '../../../lib/data/online';
import { discardOutboxRow, retryOutboxRow } from '../../../lib/outbox/outbox';
import type { OutboxRow } from '../../../lib/outbox/outbox-store';
import { OUTBOX_KINDS, copyMoveWithDecision, type CreateTxtPayload, type MkdirPayload, type RenamePayload, type CopyMovePayload } from './offline-ops';

const STATE_TAGS: Record<OutboxRow['state'], { color: string; text: string }> = {
  pending: { color: 'processing', text: '待同步' },
  failed: { color: 'error', text: '同步失败' },
  conflict: { color: 'warning', text: '需要处理' },
};

/** The 待同步 drawer: every row in replay order, and the choices for the ones the server refused. */
export function OutboxDrawer({ open, rows, onClose }: { open: boolean; rows: OutboxRow[]; onClose: () => void }) {
  const online = useOnline();
  return (
    <Drawer title={`待同步（${rows.length}）`} open={open} onClose={onClose} size="large" data-testid="outbox-drawer">
      <Typography.Paragraph type="secondary">
        {online ? '网络已恢复，正在按顺序同步；需要处理的项会暂停其后的同步。' : '当前离线：这些修改已保存在本机，联网后按顺序同步到服务器。'}
      </Typography.Paragraph>
      {rows.length === 0 ? <Empty /> : <List dataSource={rows} renderItem={(row) => <OutboxItem row={row} />} />}
    </Drawer>
  );
}

function OutboxItem({ row }: { row: OutboxRow }) {
  const tag = STATE_TAGS[row.state];
  return (
    <List.Item data-testid="outbox-row" data-state={row.state}>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <Tag color={tag.color}>{tag.text}</Tag>
          <span data-testid="outbox-label">{row.label}</span>
          <Typography.Text type="secondary">{formatDateTime(row.createdAt)}</Typography.Text>
        </Space>
        {row.reason && <Typography.Text type={row.state === 'failed' ? 'danger' : 'warning'}>{row.reason}</Typography.Text>}
        {row.state !== 'pending' && <Resolve row={row} />}
      </Space>
    </List.Item>
  );
}

/** The choices for a refused row, by its kind. */
function Resolve({ row }: { row: OutboxRow }) {
  const discard = (
    <Button size="small" danger onClick={() => void discardOutboxRow(row)} data-testid="outbox-discard">
      放弃此修改
    </Button>
  );
  if (row.state === 'conflict' && row.kind === OUTBOX_KINDS.copyMove) {
    const p = row.payload as CopyMovePayload;
    return (
      <Space wrap>
        <Button size="small" type="primary" onClick={() => void retryOutboxRow(row, copyMoveWithDecision(p, 'rename'))} data-testid="outbox-keep-both">
          保留两者（自动重命名）
        </Button>
        <Button size="small" onClick={() => void retryOutboxRow(row, copyMoveWithDecision(p, 'overwrite'))}>
          覆盖同名文件
        </Button>
        <Button size="small" onClick={() => void retryOutboxRow(row, copyMoveWithDecision(p, 'skip'))}>
          跳过同名项
        </Button>
        {discard}
      </Space>
    );
  }
  if (row.state === 'conflict' && row.kind === OUTBOX_KINDS.createTxt) {
    const p = row.payload as CreateTxtPayload;
    return (
      <Space wrap>
        <Button size="small" type="primary" onClick={() => void retryOutboxRow(row, { ...p, decision: 'rename' })} data-testid="outbox-keep-both">
          另存为新名称
        </Button>
        <Button size="small" onClick={() => void retryOutboxRow(row, { ...p, decision: 'newVersion' })}>
          作为新版本保存
        </Button>
        {discard}
      </Space>
    );
  }
  if (row.state === 'conflict' && (row.kind === OUTBOX_KINDS.mkdir || row.kind === OUTBOX_KINDS.rename)) return <NewName row={row} discard={discard} />;
  return (
    <Space wrap>
      <Button size="small" type="primary" onClick={() => void retryOutboxRow(row)} data-testid="outbox-retry">
        重试
      </Button>
      {discard}
    </Space>
  );
}

/** A name clash of a new folder or a rename: send it again under another name. */
function NewName({ row, discard }: { row: OutboxRow; discard: React.ReactNode }) {
  const current = row.kind === OUTBOX_KINDS.mkdir ? (row.payload as MkdirPayload).req.name : (row.payload as RenamePayload).name;
  const [name, setName] = useState(`${current} (1)`);
  const withName = (): unknown =>
    row.kind === OUTBOX_KINDS.mkdir ? { ...(row.payload as MkdirPayload), req: { ...(row.payload as MkdirPayload).req, name } } : { ...(row.payload as RenamePayload), name };
  return (
    <Space wrap>
      <Input size="small" value={name} onChange={(e) => setName(e.target.value)} style={{ width: 220 }} data-testid="outbox-new-name" />
      <Button size="small" type="primary" disabled={!name.trim()} onClick={() => void retryOutboxRow(row, withName())} data-testid="outbox-use-name">
        用此名称重试
      </Button>
      {discard}
    </Space>
  );
}
