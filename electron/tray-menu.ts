/**
 * The tray icon's tooltip and menu, from the sync status (pure: electron/main.ts builds the Electron
 * menu from it, tests/unit/electron checks it).
 */
import type { SyncStatus } from '../common/sync/types';

export type TrayAction = 'open' | 'pause' | 'resume' | 'syncNow' | 'checkUpdates' | 'quit';

export interface TrayItem {
  label: string;
  action?: TrayAction;
  enabled?: boolean;
  separator?: true;
}

/** One line for the tooltip: 同步中 / 已暂停 / 无法连接服务器 / 需要处理 / 已同步. */
export function trayTooltip(status: SyncStatus | null): string {
  const base = '企业云盘';
  if (!status || status.pairs.length === 0) return `${base} · 未设置同步文件夹`;
  if (status.paused) return `${base} · 同步已暂停`;
  const phases = status.pairs.map((p) => p.phase);
  const failed = status.pairs.reduce((n, p) => n + p.lists.failList.length, 0);
  if (phases.includes('error')) return `${base} · 同步出错：${status.pairs.find((p) => p.phase === 'error')?.message ?? ''}`;
  if (phases.includes('offline')) return `${base} · 无法连接服务器，稍后自动重试`;
  if (phases.includes('syncing') || phases.includes('scanning')) {
    const active = status.pairs.reduce((n, p) => n + p.lists.syncList.length, 0);
    return `${base} · 同步中${active > 0 ? `（${active} 项）` : ''}`;
  }
  if (failed > 0) return `${base} · ${failed} 个文件未能同步`;
  return `${base} · 已同步`;
}

export function trayMenu(status: SyncStatus | null): TrayItem[] {
  const hasPairs = Boolean(status && status.pairs.length > 0);
  return [
    { label: '打开企业云盘', action: 'open' },
    { separator: true, label: '' },
    status?.paused ? { label: '继续同步', action: 'resume', enabled: hasPairs } : { label: '暂停同步', action: 'pause', enabled: hasPairs },
    { label: '立即同步', action: 'syncNow', enabled: hasPairs && !status?.paused },
    { separator: true, label: '' },
    { label: '检查更新', action: 'checkUpdates' },
    { label: '退出', action: 'quit' },
  ];
}
