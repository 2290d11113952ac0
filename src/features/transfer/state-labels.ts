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
    case 'held':
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
