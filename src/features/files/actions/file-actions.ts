/**
 * Which actions the toolbar and the context menu offer for a selection (spec §3 suggested actions:
 * rename, move, copy, sort, upload new version, view historical versions, lock, unlock — plus open,
 * preview, download, delete, favorites and the recycle bin's restore and purge). Pure, so the same
 * rules drive both menus and are unit-tested. Each action names the button-permission code that
 * gates it (codes listed in the server's ALL_PERMISSIONS).
 */
import type { FileEntry, SpaceRole } from '../../../../common/api/types';
import { spaceMayModify } from '../../../../common/files/space-roles';
import { byteVerdict } from '../../../../common/api/byte-access';
import { grantOfEntry, previewModeOf } from '../preview/preview-mode';

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
  | 'purge'
  | 'share'
  | 'swapCheck'
  | 'safeCheck';

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
  share: '分享',
  swapCheck: '提交交换检查',
  safeCheck: '安全预检',
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
  share: 'share:create',
  swapCheck: 'file:swap',
  // The same checks as 提交交换检查, recording nothing: whoever may submit may look first.
  safeCheck: 'file:swap',
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
  /** The network build this client is (exchange-area files cross between them). */
  side?: 'internal' | 'public';
  /** The public space's id while the tenant's publicDownLoad switch is off (its files are only previewed). */
  publicDownloadOff?: string | null;
}

/** What works offline: looking around, and the changes the outbox keeps and replays (offline/offline-ops.ts). */
export const OFFLINE_ACTIONS: ReadonlySet<FileAction> = new Set<FileAction>(['open', 'openLocation', 'rename', 'move', 'copy', 'delete', 'favorite', 'unfavorite']);
export const OFFLINE_REASON = '离线时不可用，联网后再试';

export interface OfferedAction {
  action: FileAction;
  /** Chinese reason when shown but not usable (locked by someone else, not the owner in a space). */
  disabledReason: string | null;
}

const LOCKED_BY_OTHER = '文件已被他人锁定';
const NOT_YOURS = '只能修改自己上传的文件';
const PREVIEW_ONLY = '该分享仅允许预览';
const OWNER_ONLY = '共享的文件只能由所有者修改';
const NOT_CROSSED = '尚未通过交换检查，暂不能在当前网络使用';
const NOT_OFFERED = '当前不可用';
const PUBLIC_DOWNLOAD_OFF = '管理员已关闭公共空间下载';

/** Reached through a share with less than `need`: the reason, else null. */
function shareBlocked(selection: readonly FileEntry[], need: 'download' | 'edit' | 'owner'): string | null {
  for (const e of selection) {
    if (!e.share) continue;
    if (need === 'owner') return OWNER_ONLY;
    // The byte decision's rules (common/api/byte-access.ts), as the server applies them.
    if (byteVerdict(grantOfEntry(e), need) !== 'yes') return need === 'download' ? PREVIEW_ONLY : '没有编辑权限';
  }
  return null;
}

/** A public-space file while the tenant's publicDownLoad switch is off: the reason, else null (the server refuses alike). */
function publicBlocked(selection: readonly FileEntry[], ctx: ActionContext): string | null {
  return ctx.publicDownloadOff && selection.some((e) => e.spaceId === ctx.publicDownloadOff) ? PUBLIC_DOWNLOAD_OFF : null;
}

/** An exchange-area file from the other build that has not passed checkSwap: the reason, else null. */
function exchangeBlocked(selection: readonly FileEntry[], ctx: ActionContext): string | null {
  return selection.some((e) => e.exchange && ctx.side && e.exchange.side !== ctx.side && e.exchange.state !== 'passed') ? NOT_CROSSED : null;
}

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

/**
 * Why `action` cannot be done on `selection` now, or null when it can: the reason the menus show,
 * asked by every other way in too (a row's 下载 button, keyboard shortcuts), so none of them says
 * 已开始下载 while the menu says 离线时不可用. An action not offered at all is refused as unavailable.
 */
export function actionBlocked(action: FileAction, selection: readonly FileEntry[], ctx: ActionContext): string | null {
  const offered = actionsFor(selection, ctx).find((o) => o.action === action);
  return offered ? offered.disabledReason : NOT_OFFERED;
}

/**
 * Why opening `entry` cannot work now, or null. A folder opens from the cache; a file opens its
 * preview (or offers a download), whose bytes only the server has — the web app keeps no file
 * contents for offline use.
 */
export function openBlocked(entry: FileEntry, ctx: ActionContext): string | null {
  return !entry.isDir && ctx.offline ? OFFLINE_REASON : null;
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
  const owned = shareBlocked(selection, 'owner');
  const blocked = owned ?? changeBlocked(selection, ctx);
  // Taking content away: not through a preview-only share, not an exchange file that has not crossed.
  const take = shareBlocked(selection, 'download') ?? exchangeBlocked(selection, ctx) ?? publicBlocked(selection, ctx);
  // Renaming through a share: permission edit, and never the shared entry itself.
  const renameBlocked = single?.share ? (shareBlocked(selection, 'edit') ?? (single.share.rootId === single.id ? '共享的文件夹本身不能重命名' : null)) : blocked;
  const versionBlocked = single?.share ? shareBlocked(selection, 'edit') : blocked;
  const inExchange = selection.every((e) => e.category === 3 && e.spaceId === null && !e.share);
  const out: OfferedAction[] = [];
  if (single?.isDir) out.push(ok('open'));
  if (single && !single.isDir && previewModeOf(single)) out.push(ok('preview', exchangeBlocked(selection, ctx)));
  if (single && !single.isDir) out.push(ok('download', take));
  if (selection.length > 1 || single?.isDir) out.push(ok('zip', take));
  if (single && ctx.mode !== 'folder') out.push(ok('openLocation'));
  // Sharing: one's own entries (or a space's one may change); never from the exchange area, never passed on.
  if (!selection.some((e) => e.share) && !inExchange) out.push(ok('share', selection.some((e) => !mayModify(e, ctx)) ? NOT_YOURS : null));
  // 安全预检 (fileSafe/check) says what 提交交换检查 (checkSwap) would intercept, changing nothing.
  if (inExchange && ctx.mode === 'folder') out.push(ok('safeCheck'), ok('swapCheck'));
  if (single) out.push(ok('rename', renameBlocked));
  // A copy may stay inside the public space while its downloads are off (the server refuses one that leaves).
  out.push(ok('move', blocked), ok('copy', shareBlocked(selection, 'download') ?? exchangeBlocked(selection, ctx)), ok('delete', blocked));
  if (selection.some((e) => !e.favorite)) out.push(ok('favorite'));
  if (selection.some((e) => e.favorite)) out.push(ok('unfavorite'));
  if (selection.some((e) => !e.locked)) out.push(ok('lock', owned ?? (selection.some((e) => !mayModify(e, ctx)) ? NOT_YOURS : null)));
  if (selection.some((e) => e.locked)) out.push(ok('unlock', selection.some((e) => lockedByOther(e, ctx)) ? '只有锁定者或管理员可以解锁' : null));
  if (single && !single.isDir) out.push(ok('uploadVersion', versionBlocked), ok('versions'));
  return out;
}
