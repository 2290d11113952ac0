import type { HoldReason } from '../../../common/transfer/checks';
import type { FailReason, HeldDecision, TransferItemView } from '../../../common/transfer/engine-api';
import type { TransferState } from '../../../common/transfer/states';

export const STATE_LABELS: Record<TransferState, string> = {
  waiting: '等待中',
  hashing: '计算校验值',
  checking: '校验中',
  uploading: '上传中',
  paused: '已暂停',
  retrying: '重试中',
  held: '待处理',
  done: '已完成',
  failed: '失败',
  cancelled: '已取消',
};

/** The state as shown for this item. */
export function stateLabel(item: Pick<TransferItemView, 'state'>): string {
  return item.state === 'hashing' ? `${STATE_LABELS.hashing}…` : STATE_LABELS[item.state];
}

/** Why an item waits for the user, or why it failed for good. */
export const HOLD_REASON_LABELS: Record<HoldReason | FailReason, string> = {
  exists: '目标文件夹中已有同名文件',
  existsNotYours: '目标文件夹中已有他人的同名文件，您无权覆盖',
  sensitive: '文件名包含敏感内容，请确认是否继续上传',
  locked: '同名文件已被他人锁定，无法覆盖',
  fileMissing: '浏览器已无法读取原文件，请重新选择该文件',
  unauthorized: '登录已失效，请重新登录后重试',
  blockedType: '该文件类型不允许上传',
  badName: '名称不符合命名规则，请重命名后上传',
  versionGone: '原文件已被删除或不再与您共享，无法上传为它的新版本',
};

/** A failed item whose name the server refuses: offered 重命名 and 移除, never 重试 (it would fail again). */
export function needsRename(item: Pick<TransferItemView, 'state' | 'holdReason'>): boolean {
  return item.state === 'failed' && item.holdReason === 'badName';
}

/** A choice offered for a held item: a decision, or picking the file again. */
export type HeldChoice = { kind: 'decide'; decision: HeldDecision; label: string } | { kind: 'reattach'; label: string } | { kind: 'retry'; label: string };

/** The choices for a held item, by the reason it is held. */
export function heldChoices(reason: HoldReason | null | undefined): HeldChoice[] {
  const giveUp: HeldChoice = { kind: 'decide', decision: 'giveUp', label: '放弃' };
  switch (reason) {
    case 'exists':
      return [{ kind: 'decide', decision: 'newVersion', label: '作为新版本上传' }, { kind: 'decide', decision: 'rename', label: '重命名后上传' }, giveUp];
    case 'sensitive':
      // 'rename' never replaces anything: if the name is also taken, the server picks a free one.
      return [{ kind: 'decide', decision: 'rename', label: '继续上传' }, giveUp];
    case 'locked':
    case 'existsNotYours':
      return [{ kind: 'decide', decision: 'rename', label: '重命名后上传' }, giveUp];
    case 'fileMissing':
      return [{ kind: 'reattach', label: '重新选择文件' }, giveUp];
    case 'unauthorized':
      return [{ kind: 'retry', label: '重试' }, giveUp];
    default:
      return [];
  }
}

export type TransferCommand = 'pause' | 'resume' | 'cancel' | 'retry';

/** Buttons offered in each state (consistent with common/transfer/states.ts transitions). */
export function commandsFor(state: TransferState): TransferCommand[] {
  switch (state) {
    case 'waiting':
    case 'hashing':
    case 'checking':
    case 'uploading':
    case 'retrying':
      return ['pause', 'cancel'];
    case 'paused':
      return ['resume', 'cancel'];
    case 'held':
      // With a known reason the row offers that reason's choices instead (heldChoices).
      return ['resume', 'cancel'];
    case 'failed':
      return ['retry', 'cancel'];
    case 'done':
    case 'cancelled':
      return [];
  }
}

/** 'm:ss' or 'h:mm:ss'; '-' when unknown. */
export function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return '-';
  const s = Math.ceil(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
