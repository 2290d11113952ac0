/** What the sync panel says (Chinese) about phases, modes and lists. */
import type { DeletionEvent, HeldDeleteItem, RestoreOutcome, SyncLists, SyncMode, SyncPairStatus, SyncPassSummary } from '../../../common/sync/types';

export const MODE_LABELS: Record<SyncMode, string> = { backup: '备份（本机 → 云端）', 'two-way': '双向同步' };

export function phaseLabel(p: SyncPairStatus, paused: boolean): { text: string; color: string } {
  if (paused || p.pair.paused) return { text: '已暂停', color: 'default' };
  switch (p.phase) {
    case 'syncing':
    case 'scanning':
      return { text: '同步中', color: 'processing' };
    case 'offline':
      return { text: '无法连接服务器', color: 'warning' };
    case 'error':
      return p.code === 'deletesHeld' ? { text: '等待确认删除', color: 'warning' } : { text: '需要处理', color: 'error' };
    case 'paused':
      return { text: '已暂停', color: 'default' };
    default:
      if (p.heldDeletes) return { text: '等待确认删除', color: 'warning' };
      return { text: p.lists.failList.length > 0 ? `${p.lists.failList.length} 个未同步` : '已同步', color: p.lists.failList.length > 0 ? 'warning' : 'success' };
  }
}

export const LIST_TABS: Array<{ key: Exclude<keyof SyncLists, 'allFilepathsLength'>; label: string }> = [
  { key: 'syncList', label: '同步中' },
  { key: 'failList', label: '未能同步' },
  { key: 'successList', label: '最近完成' },
  { key: 'interceptList', label: '已拦截' },
  { key: 'sensitiveList', label: '敏感文件' },
  { key: 'secretList', label: '涉密文件' },
  { key: 'skippedList', label: '已跳过' },
];

export function summaryText(s: SyncPassSummary | null): string {
  if (!s) return '尚未同步';
  const parts = [
    s.uploaded && `上传 ${s.uploaded}`,
    s.downloaded && `下载 ${s.downloaded}`,
    s.moved && `移动 ${s.moved}`,
    s.deleted && `删除 ${s.deleted}`,
    s.conflicts && `冲突 ${s.conflicts}`,
    s.failed && `失败 ${s.failed}`,
    s.intercepted && `拦截 ${s.intercepted}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join('，') : '没有变化';
}

/** KB/s in the form, bytes per second for the engine (0 = unlimited). */
export const kbToBytes = (kb: number | null): number => Math.max(0, Math.round((kb ?? 0) * 1024));
export const bytesToKb = (bytes: number): number => Math.round(bytes / 1024);

/** What the pair's message says; an engine that is offline tries again by itself, and says so here. */
export function pairMessage(p: SyncPairStatus): string | null {
  if (!p.message) return null;
  return p.phase === 'offline' ? `${p.message}，稍后将自动重试` : p.message;
}

export function heldItemLine(item: HeldDeleteItem): string {
  const where = item.side === 'remote' ? '删除云端' : '删除本机';
  return `${where}：${item.path}${item.isDir ? `（文件夹，${item.files} 个文件）` : ''}`;
}

export function deletionLine(event: DeletionEvent): string {
  const parts = [event.remote > 0 && `云端 ${event.remote} 项（已移入回收站）`, event.local > 0 && `本机 ${event.local} 项`].filter(Boolean);
  return `删除了${parts.join('、')}`;
}

export function restoreText(outcome: RestoreOutcome): string {
  return outcome.failed.length === 0 ? `已恢复 ${outcome.restored} 项` : `已恢复 ${outcome.restored} 项，${outcome.failed.length} 项未能恢复`;
}
