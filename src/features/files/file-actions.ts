/**
 * Which actions the toolbar and the context menu offer for a selection (spec §3 suggested actions:
 * rename, move, copy, sort, upload new version, view historical versions, lock, unlock — plus open,
 * preview, download, delete, favorites and the recycle bin's restore and purge). Pure, so the same
 * rules drive both menus and are unit-tested. Each action names the button-permission code that
 * gates it (codes listed in the server's ALL_PERMISSIONS).
 */
import type { FileEntry, SpaceRole } from '../../../common/api/types';
import { spaceMayModify } from '../../../common/files/space-roles';
import { previewModeOf } from './preview-mode';

export type FileAction =
  | 'open'
  | 'preview'
  | 'download'
  | 'zip'
  | 'openLocation'
  | 'rename'
  | 'move'
  | 'copy'
  | 'delete'
  | 'favorite'
  | 'unfavorite'
  | 'lock'
  | 'unlock'
  | 'uploadVersion'
  | 'versions'
  | 'restore'
  | 'purge';

export const ACTION_LABELS: Record<FileAction, string> = {
  open: '打开',
  preview: '预览',
  download: '下载',
  zip: '打包下载',
  openLocation: '打开所在位置',
  rename: '重命名',
  move: '移动到',
  copy: '复制到',
  delete: '删除',
  favorite: '收藏',
  unfavorite: '取消收藏',
  lock: '锁定',
  unlock: '解锁',
  uploadVersion: '上传新版本',
  versions: '历史版本',
  restore: '还原',
  purge: '彻底删除',
};

/** Button-permission code of each action; null = never gated (looking is always allowed). */
export const ACTION_PERMISSIONS: Record<FileAction, string | null> = {
  open: null,
  openLocation: null,
  preview: 'file:preview',
  download: 'file:download',
  zip: 'file:zip',
  rename: 'file:rename',
  move: 'file:move',
  copy: 'file:copy',
  delete: 'file:delete',
  favorite: 'file:favorite',
  unfavorite: 'file:favorite',
  lock: 'file:lock',
  unlock: 'file:unlock',
  uploadVersion: 'file:newVersion',
  versions: 'file:versions',
  restore: 'file:restore',
  purge: 'file:purge',
};

/** Gates page-level buttons that are not about a selection. */
export const PAGE_PERMISSIONS = {
  upload: 'file:upload',
  mkdir: 'file:mkdir',
  createTxt: 'file:createTxt',
  sort: 'file:sort',
  emptyRecycle: 'file:purge',
  createGroup: 'group:create',
  /** Rename or delete a group, manage its members (the space role decides the rest). */
  manageGroup: 'group:manage',
} as const;

export type BrowserMode = 'folder' | 'favorite' | 'recycle' | 'search';

export interface ActionContext {
  mode: BrowserMode;
  callerId: string | null;
  isAdmin: boolean;
  /** In a space: the caller's role there (null in the public space); undefined outside spaces. */
  spaceRole?: SpaceRole | null;
  /** No network: only what the outbox can keep for later (OFFLINE_ACTIONS) stays usable. */
  offline?: boolean;
}

/** What works offline: looking around, and the changes the outbox keeps and replays (offline-ops.ts). */
export const OFFLINE_ACTIONS: ReadonlySet<FileAction> = new Set<FileAction>(['open', 'openLocation', 'rename', 'move', 'copy', 'delete', 'favorite', 'unfavorite']);
export const OFFLINE_REASON = '离线时不可用，联网后再试';

export interface OfferedAction {
  action: FileAction;
  /** Chinese reason when shown but not usable (locked by someone else, not the owner in a space). */
  disabledReason: string | null;
}

const LOCKED_BY_OTHER = '文件已被他人锁定';
const NOT_YOURS = '只能修改自己上传的文件';

function lockedByOther(e: FileEntry, ctx: ActionContext): boolean {
  return e.locked && e.lockedBy?.id !== ctx.callerId && !ctx.isAdmin;
}

function mayModify(e: FileEntry, ctx: ActionContext): boolean {
  if (ctx.spaceRole === undefined || e.spaceId === null) return true;
  return ctx.callerId !== null && spaceMayModify(ctx.spaceRole, ctx.callerId, e.ownerId, ctx.isAdmin);
}

/** Why the selection cannot be changed, or null when it can. */
function changeBlocked(selection: readonly FileEntry[], ctx: ActionContext): string | null {
  if (selection.some((e) => lockedByOther(e, ctx))) return LOCKED_BY_OTHER;
  if (selection.some((e) => !mayModify(e, ctx))) return NOT_YOURS;
  return null;
}

/** The actions offered for `selection`, in menu order. */
export function actionsFor(selection: readonly FileEntry[], ctx: ActionContext): OfferedAction[] {
  const offered = onlineActionsFor(selection, ctx);
  if (!ctx.offline) return offered;
  return offered.map((o) => (OFFLINE_ACTIONS.has(o.action) || o.disabledReason ? o : { ...o, disabledReason: OFFLINE_REASON }));
}

function onlineActionsFor(selection: readonly FileEntry[], ctx: ActionContext): OfferedAction[] {
  if (selection.length === 0) return [];
  const ok = (action: FileAction, disabledReason: string | null = null): OfferedAction => ({ action, disabledReason });
  if (ctx.mode === 'recycle') return [ok('restore'), ok('purge')];

  const single = selection.length === 1 ? selection[0] : undefined;
  const blocked = changeBlocked(selection, ctx);
  const out: OfferedAction[] = [];
  if (single?.isDir) out.push(ok('open'));
  if (single && !single.isDir && previewModeOf(single)) out.push(ok('preview'));
  if (single && !single.isDir) out.push(ok('download'));
  if (selection.length > 1 || single?.isDir) out.push(ok('zip'));
  if (single && ctx.mode !== 'folder') out.push(ok('openLocation'));
  if (single) out.push(ok('rename', blocked));
  out.push(ok('move', blocked), ok('copy'), ok('delete', blocked));
  if (selection.some((e) => !e.favorite)) out.push(ok('favorite'));
  if (selection.some((e) => e.favorite)) out.push(ok('unfavorite'));
  if (selection.some((e) => !e.locked)) out.push(ok('lock', selection.some((e) => !mayModify(e, ctx)) ? NOT_YOURS : null));
  if (selection.some((e) => e.locked)) out.push(ok('unlock', selection.some((e) => lockedByOther(e, ctx)) ? '只有锁定者或管理员可以解锁' : null));
  if (single && !single.isDir) out.push(ok('uploadVersion', blocked), ok('versions'));
  return out;
}
