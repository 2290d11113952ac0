/**
 * The desktop's sync settings and folder pairs: kept as JSON in the app's data folder, and every
 * value that comes from the page checked here before the engine sees it (the bridge is an edge: a
 * page could send anything).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { NewSyncPair, SyncPairPatch } from '../common/desktop/bridge';
import type { SyncPairConfig, SyncSettings } from '../common/sync/types';
import { checkFileName } from '../common/validation/names';

export interface DesktopSyncConfig {
  pairs: SyncPairConfig[];
  settings: SyncSettings;
  paused: boolean;
}

export const DEFAULT_SYNC_SETTINGS: SyncSettings = { uploadLimit: 0, downloadLimit: 0, intervalMs: 30 * 60_000, startAtLogin: false };
const MAX_IGNORE_PATTERNS = 200;
const MAX_PAIRS = 50;

export class SyncConfigError extends Error {}

const isInsideOrSame = (a: string, b: string) => {
  const rel = path.relative(b, a);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

function checkIgnore(value: unknown): string[] {
  if (!Array.isArray(value) || value.length > MAX_IGNORE_PATTERNS || value.some((p) => typeof p !== 'string' || p.length > 256)) {
    throw new SyncConfigError('忽略规则格式不正确');
  }
  return value.map((p: string) => p.trim()).filter((p) => p !== '');
}

/** A new pair from the page, checked: an absolute local folder overlapping no other pair, a valid cloud path. */
export function checkNewPair(input: unknown, existing: readonly SyncPairConfig[], isFolder: (p: string) => boolean): NewSyncPair {
  const p = (input ?? {}) as Partial<NewSyncPair>;
  if (typeof p.localDir !== 'string' || !path.isAbsolute(p.localDir)) throw new SyncConfigError('请选择本机上的一个文件夹');
  const localDir = path.resolve(p.localDir);
  if (!isFolder(localDir)) throw new SyncConfigError('本机文件夹不存在');
  if (path.parse(localDir).root === localDir) throw new SyncConfigError('不能同步整个磁盘，请选择其中的文件夹');
  for (const other of existing) {
    if (isInsideOrSame(localDir, other.localDir) || isInsideOrSame(other.localDir, localDir)) throw new SyncConfigError(`该文件夹与已同步的“${other.localDir}”重叠`);
  }
  if (existing.length >= MAX_PAIRS) throw new SyncConfigError('同步文件夹数量已达上限');
  if (typeof p.remotePath !== 'string') throw new SyncConfigError('请填写同步文件中的文件夹');
  const parts = p.remotePath.split('/').filter(Boolean);
  if (parts.length === 0) throw new SyncConfigError('请填写同步文件中的文件夹');
  for (const part of parts) {
    const problem = checkFileName(part);
    if (problem) throw new SyncConfigError(`云端文件夹名称“${part}”不可用：${problem.message}`);
  }
  if (p.mode !== 'backup' && p.mode !== 'two-way') throw new SyncConfigError('同步方式不正确');
  return { localDir, remotePath: `/${parts.join('/')}`, mode: p.mode, deleteRemote: p.deleteRemote === true, ignore: checkIgnore(p.ignore ?? []) };
}

export function newPairConfig(pair: NewSyncPair): SyncPairConfig {
  return { id: randomBytes(8).toString('hex'), ...pair, paused: false };
}

export function checkPairPatch(input: unknown): SyncPairPatch {
  const p = (input ?? {}) as Record<string, unknown>;
  const out: SyncPairPatch = {};
  if ('mode' in p) {
    if (p.mode !== 'backup' && p.mode !== 'two-way') throw new SyncConfigError('同步方式不正确');
    out.mode = p.mode;
  }
  if ('deleteRemote' in p) out.deleteRemote = p.deleteRemote === true;
  if ('paused' in p) out.paused = p.paused === true;
  if ('ignore' in p) out.ignore = checkIgnore(p.ignore);
  return out;
}

export function checkSettingsPatch(input: unknown): Partial<SyncSettings> {
  const p = (input ?? {}) as Record<string, unknown>;
  const out: Partial<SyncSettings> = {};
  for (const key of ['uploadLimit', 'downloadLimit'] as const) {
    if (!(key in p)) continue;
    const n = p[key];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 10 * 1024 ** 3) throw new SyncConfigError('限速须为不小于 0 的整数（字节/秒）');
    out[key] = n;
  }
  if ('startAtLogin' in p) out.startAtLogin = p.startAtLogin === true;
  return out;
}

export function loadSyncConfig(file: string): DesktopSyncConfig {
  try {
    const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<DesktopSyncConfig>;
    return {
      pairs: Array.isArray(raw.pairs) ? raw.pairs : [],
      settings: { ...DEFAULT_SYNC_SETTINGS, ...raw.settings },
      paused: raw.paused === true,
    };
  } catch {
    return { pairs: [], settings: { ...DEFAULT_SYNC_SETTINGS }, paused: false };
  }
}

/** Written to a temporary file and renamed over: a crash never leaves half a file. */
export function saveSyncConfig(file: string, config: DesktopSyncConfig): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(config, null, 2));
  fs.renameSync(temp, file);
}
