import { CaretRightOutlined, CloseOutlined, DeleteOutlined, EditOutlined, PauseOutlined, RedoOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { memo, useRef, type CSSProperties, type ReactNode } from 'react';
import { formatSize } from '../../../common/format/size';
import type { HeldDecision, TransferItemView } from '../../../common/transfer/engine-api';
import { commandsFor, formatEta, heldChoices, HOLD_REASON_LABELS, needsRename, stateLabel, type TransferCommand } from './state-labels';

const isHeldWithReason = (item: TransferItemView): boolean => item.state === 'held' && !!item.holdReason && item.holdReason !== 'blockedType';

function noteOf(item: TransferItemView): string | null {
  if (isHeldWithReason(item)) return HOLD_REASON_LABELS[item.holdReason as keyof typeof HOLD_REASON_LABELS];
  // 'waiting' with a note: queued offline, its pre-upload checks are asked before the first byte.
  if (item.lastError && (item.state === 'failed' || item.state === 'held' || item.state === 'retrying' || item.state === 'waiting')) return item.lastError;
  return null;
}

/** The row offers its choices on a line of their own (a held item's, or 重命名 / 移除) instead of its commands. */
const hasChoices = (item: TransferItemView): boolean => isHeldWithReason(item) || needsRename(item);

/** A row's height, known from the item alone (the list is virtualized without measuring). */
export function transferRowHeight(item: TransferItemView): number {
  return 82 + (noteOf(item) ? 20 : 0) + (hasChoices(item) ? 30 : 0);
}

const COMMANDS: Record<TransferCommand, { label: string; icon: ReactNode }> = {
  pause: { label: '暂停', icon: <PauseOutlined /> },
  resume: { label: '继续', icon: <CaretRightOutlined /> },
  cancel: { label: '取消', icon: <CloseOutlined /> },
  retry: { label: '重试', icon: <RedoOutlined /> },
};

export interface TransferRowActions {
  onCommand(command: TransferCommand, id: string): void;
  onDecide(id: string, decision: HeldDecision): void;
  onReattach(id: string, file: File): void;
  /** 重命名 of an item whose name the server refused (the panel asks for the name). */
  onRename(item: TransferItemView): void;
  /** 移除: off the list. */
  onRemove(id: string): void;
}

/**
 * No 'active' shimmer: the bar moves by itself while bytes go, and an endless animation keeps the page
 * drawing frames for the whole upload (PROFILE-browser-upload.md, 2026-11-25 evening).
 */
function progressStatus(item: TransferItemView): 'success' | 'exception' | 'normal' {
  if (item.state === 'done') return 'success';
  if (item.state === 'failed') return 'exception';
  return 'normal';
}

/** 100 % only once the item is 已完成: with every byte sent, the merge is still to come (99 %). */
function percentOf(item: TransferItemView): number {
  if (item.state === 'done') return 100;
  const part = item.state === 'hashing' && item.hashedBytes !== undefined ? item.hashedBytes : item.bytesDone;
  return item.size > 0 ? Math.min(99, Math.floor((part / item.size) * 100)) : 0;
}

/**
 * The name on one line, cut with an ellipsis by CSS alone (the full name in its title). antd's
 * Typography ellipsis measures the text in a layout effect on every render, and a running row renders
 * with every progress snapshot (one a second, NOTIFY_INTERVAL_MS).
 */
const NAME_STYLE: CSSProperties = { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' };

/** The row's command buttons: they change with the state only, not with each progress snapshot. */
const RowCommands = memo(function RowCommands({ id, state, choicesBelow, noRetry, actions }: { id: string; state: TransferItemView['state']; choicesBelow: boolean; noRetry: boolean; actions: TransferRowActions }) {
  // A held item with a reason, or a name to change, offers its choices below instead.
  return (choicesBelow ? [] : commandsFor(state).filter((c) => !(noRetry && c === 'retry'))).map((command) => (
    <Tooltip key={command} title={COMMANDS[command].label}>
      <Button size="small" type="text" icon={COMMANDS[command].icon} aria-label={COMMANDS[command].label} data-testid={`transfer-${command}`} onClick={() => actions.onCommand(command, id)} />
    </Tooltip>
  ));
});

/** Choices for a held item with a known reason; the file input serves '重新选择文件'. */
function HeldChoices({ item, actions }: { item: TransferItemView; actions: TransferRowActions }) {
  const input = useRef<HTMLInputElement>(null);
  const reason = item.holdReason === 'blockedType' || item.holdReason === 'badName' || item.holdReason === 'versionGone' ? null : item.holdReason;
  return (
    <Space size={4} wrap={false}>
      {heldChoices(reason).map((choice) => {
        const testId = choice.kind === 'decide' ? `transfer-decide-${choice.decision}` : `transfer-${choice.kind}`;
        const onClick = (): void => {
          if (choice.kind === 'decide') actions.onDecide(item.id, choice.decision);
          else if (choice.kind === 'retry') actions.onCommand('retry', item.id);
          else input.current?.click();
        };
        return (
          <Button key={testId} size="small" type={choice.kind === 'decide' && choice.decision === 'giveUp' ? 'default' : 'primary'} ghost={!(choice.kind === 'decide' && choice.decision === 'giveUp')} onClick={onClick} data-testid={testId}>
            {choice.label}
          </Button>
        );
      })}
      {reason === 'fileMissing' && (
        <input
          ref={input}
          type="file"
          hidden
          data-testid="transfer-reattach-input"
          aria-label="重新选择文件"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) actions.onReattach(item.id, file);
          }}
        />
      )}
    </Space>
  );
}

/** 重命名 (then the upload goes on from what was sent) or 移除, for a name the server refuses. */
function RenameChoices({ item, actions }: { item: TransferItemView; actions: TransferRowActions }) {
  return (
    <Space size={4} wrap={false}>
      <Button size="small" type="primary" ghost icon={<EditOutlined />} onClick={() => actions.onRename(item)} data-testid="transfer-rename">
        重命名
      </Button>
      <Button size="small" icon={<DeleteOutlined />} onClick={() => actions.onRemove(item.id)} data-testid="transfer-remove">
        移除
      </Button>
    </Space>
  );
}

function TransferItemRowImpl({ item, actions }: { item: TransferItemView; actions: TransferRowActions }) {
  const active = (item.state === 'uploading' || item.state === 'hashing') && item.speed > 0;
  const heldWithReason = isHeldWithReason(item);
  const shownName = item.relativePath ?? item.name;
  const note = noteOf(item);
  return (
    <div
      data-testid="transfer-item"
      data-state={item.state}
      data-id={item.id}
      data-direction={item.direction}
      data-hold-reason={item.holdReason ?? ''}
      style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0', height: '100%', boxSizing: 'border-box' }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
        <span style={NAME_STYLE} title={shownName} data-testid="transfer-name">
          {shownName}
        </span>
        {item.via === 'instant' && (
          <Tag color="green" style={{ marginInlineEnd: 0 }} data-testid="transfer-instant">
            秒传
          </Tag>
        )}
        {/* A new version whose file is gone fails again on 重试: only 取消 is offered. */}
        <RowCommands id={item.id} state={item.state} choicesBelow={hasChoices(item)} noRetry={item.holdReason === 'versionGone'} actions={actions} />
      </div>
      <Progress percent={percentOf(item)} size="small" status={progressStatus(item)} style={{ marginBottom: 0 }} aria-label={`${item.name} 的进度`} />
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>
        <span data-testid="transfer-bytes">
          {formatSize(item.bytesDone)}/{formatSize(item.size)}
        </span>
        <span data-testid="transfer-state">{stateLabel(item)}</span>
        <span>{active ? `${formatSize(item.speed)}/s · 剩余 ${formatEta(item.etaSeconds)}` : ''}</span>
      </div>
      {note && (
        <Typography.Text type={heldWithReason ? 'warning' : item.state === 'waiting' ? 'secondary' : 'danger'} ellipsis style={{ fontSize: 12, display: 'block' }} title={note} data-testid="transfer-note">
          {note}
        </Typography.Text>
      )}
      {heldWithReason && <HeldChoices item={item} actions={actions} />}
      {needsRename(item) && <RenameChoices item={item} actions={actions} />}
    </div>
  );
}

/** One queue item; memoized, since snapshots arrive several times a second. */
export const TransferItemRow = memo(TransferItemRowImpl, (a, b) => a.actions === b.actions && shallowEqualItem(a.item, b.item));

function shallowEqualItem(a: TransferItemView, b: TransferItemView): boolean {
  return (
    a.id === b.id &&
    a.state === b.state &&
    a.bytesDone === b.bytesDone &&
    a.speed === b.speed &&
    a.etaSeconds === b.etaSeconds &&
    a.lastError === b.lastError &&
    a.hashedBytes === b.hashedBytes &&
    a.holdReason === b.holdReason &&
    a.via === b.via &&
    a.name === b.name &&
    a.relativePath === b.relativePath
  );
}
