/**
 * File changes made offline: each is applied at once to the cached lists (so the user sees it) and
 * kept in the outbox (src/lib/outbox) until the network is back; the replaying tab sends it with its
 * client operation id. The executors below say how each kind is sent and what a refusal means.
 */
import type { QueryClient } from '@tanstack/react-query';
import { HEADER_CLIENT_OP_ID } from '../../../../common/api/client-env';
import { ERRORS } from '../../../../common/api/errors';
import { FILE_STATES } from '../../../../common/api/endpoints/file-states';
import { FILES, type CopyMoveRequest, type CreateTxtRequest, type MkdirRequest } from '../../../../common/api/endpoints/files';
import type { ConflictDecision, FileEntry, NameConflict } from '../../../../common/api/types';
import { fileKindOf } from '../../../../common/files/kind';
import { api } from '../../../lib/api';
import { ApiCallError, type CallOptions } from '../../../lib/api-client';
import { queryClient } from '../../../lib/data/query-client';
import { enqueueOutbox, registerOutboxExecutor } from '../../../lib/outbox/outbox';
import type { Refusal } from '../../../lib/outbox/outbox-replayer';
import type { FolderScope } from '../files-api';

export const OUTBOX_KINDS = {
  mkdir: 'file.mkdir',
  rename: 'file.rename',
  /** Copy or move. The stored kind keeps its first name: rows queued by older builds still replay. */
  copyMove: 'file.transfer',
  remove: 'file.remove',
  /** 撤销 of a delete made offline (or whose toast outlived the network). */
  restore: 'file.restore',
  favorite: 'file.favorite',
  createTxt: 'file.createTxt',
} as const;

export interface MkdirPayload {
  req: MkdirRequest;
  tempId: string;
}
export interface RenamePayload {
  id: string;
  name: string;
}
export interface CopyMovePayload {
  op: 'copy' | 'move';
  req: CopyMoveRequest;
  /** Names of the moved or copied entries, for the conflict question. */
  names: Record<string, string>;
  /** The clashes the server reported, once it did (the user decides on each). */
  conflicts?: NameConflict[];
}
export interface RemovePayload {
  ids: string[];
}
export interface RestorePayload {
  ids: string[];
}
export interface FavoritePayload {
  ids: string[];
  on: boolean;
}
export interface CreateTxtPayload {
  req: CreateTxtRequest;
  tempId: string;
  /** Set by the user after the server reported a clash. */
  decision?: 'rename' | 'newVersion';
}

// ---- optimistic edits of the cached lists -------------------------------------------------------

interface Pages {
  pages: Array<{ items: FileEntry[]; nextCursor: string | null }>;
  pageParams: unknown[];
}

const isPages = (d: unknown): d is Pages => typeof d === 'object' && d !== null && Array.isArray((d as Pages).pages);

function editListings(client: QueryClient, match: (key: readonly unknown[]) => boolean, edit: (items: FileEntry[], pageIndex: number) => FileEntry[]): void {
  for (const q of client.getQueryCache().findAll({ queryKey: ['files'] })) {
    if (!match(q.queryKey) || !isPages(q.state.data)) continue;
    const data = q.state.data;
    client.setQueryData(q.queryKey, { ...data, pages: data.pages.map((p, i) => ({ ...p, items: edit(p.items, i) })) });
  }
}

/** The listings of one folder (any sort order): ['files', 'folder', scope, dir, sort]. */
const folderListing = (scope: FolderScope, dir: string | null) => (key: readonly unknown[]) =>
  key[1] === 'folder' && JSON.stringify(key[2]) === JSON.stringify(scope) && (key[3] ?? null) === dir;

const everyListing = () => true;

function addToFolder(client: QueryClient, scope: FolderScope, dir: string | null, entry: FileEntry): void {
  // Folders first, as the server sorts them; the server's order takes over after the replay.
  editListings(client, folderListing(scope, dir), (items, i) => (i > 0 ? items : entry.isDir ? [entry, ...items] : [...items.filter((e) => e.isDir), entry, ...items.filter((e) => !e.isDir)]));
}

const patchEntries = (client: QueryClient, ids: readonly string[], patch: (e: FileEntry) => FileEntry) =>
  editListings(client, everyListing, (items) => items.map((e) => (ids.includes(e.id) ? patch(e) : e)));

const dropEntries = (client: QueryClient, ids: readonly string[]) => editListings(client, everyListing, (items) => items.filter((e) => !ids.includes(e.id)));

let tempSerial = 0;
const tempId = (): string => `offline-${Date.now().toString(36)}-${(tempSerial++).toString(36)}`;

/** An entry made offline, shown until the server's own replaces it. */
function draftEntry(id: string, name: string, isDir: boolean, scope: FolderScope, parentId: string | null, size = 0): FileEntry {
  const now = Date.now();
  return {
    id,
    parentId,
    name,
    isDir,
    size,
    kind: fileKindOf(name, isDir),
    category: scope.category,
    spaceId: scope.spaceId,
    ownerId: '',
    createdAt: now,
    updatedAt: now,
    encrypted: false,
    deleted: false,
    deletedAt: null,
    expiresAt: null,
    expired: false,
    sensitive: false,
    locked: false,
    lockedBy: null,
    favorite: false,
    versionCount: 0,
  };
}

// ---- queueing (called by the pages when offline) -------------------------------------------------

/** Answers the id of the folder's draft, shown until the server's own replaces it. */
export async function queueMkdir(req: MkdirRequest, scope: FolderScope): Promise<string> {
  const id = tempId();
  await enqueueOutbox<MkdirPayload>(OUTBOX_KINDS.mkdir, { req, tempId: id }, `新建文件夹「${req.name}」`);
  addToFolder(queryClient, scope, req.parentId, draftEntry(id, req.name, true, scope, req.parentId));
  return id;
}

export async function queueRename(file: FileEntry, name: string): Promise<void> {
  await enqueueOutbox<RenamePayload>(OUTBOX_KINDS.rename, { id: file.id, name }, `重命名「${file.name}」为「${name}」`);
  patchEntries(queryClient, [file.id], (e) => ({ ...e, name, kind: fileKindOf(name, e.isDir) }));
}

export async function queueCopyMove(op: 'copy' | 'move', entries: FileEntry[], req: CopyMoveRequest): Promise<void> {
  const names = Object.fromEntries(entries.map((e) => [e.id, e.name]));
  const what = entries.length === 1 ? `「${entries[0]!.name}」` : `${entries.length} 项`;
  await enqueueOutbox<CopyMovePayload>(OUTBOX_KINDS.copyMove, { op, req, names }, `${op === 'copy' ? '复制' : '移动'}${what}`);
  const scope: FolderScope = { category: req.targetCategory, spaceId: req.targetSpaceId ?? null };
  if (op === 'move') dropEntries(queryClient, req.ids);
  for (const e of entries) addToFolder(queryClient, scope, req.targetParentId, { ...e, id: op === 'move' ? e.id : tempId(), parentId: req.targetParentId });
}

export async function queueRemove(entries: FileEntry[]): Promise<void> {
  const ids = entries.map((e) => e.id);
  await enqueueOutbox<RemovePayload>(OUTBOX_KINDS.remove, { ids }, entries.length === 1 ? `删除「${entries[0]!.name}」` : `删除 ${entries.length} 项`);
  dropEntries(queryClient, ids);
}

/** 撤销 of a delete: the entries come back into the cached lists they were in, the restore waits in the outbox. */
export async function queueRestore(entries: FileEntry[]): Promise<void> {
  const ids = entries.map((e) => e.id);
  await enqueueOutbox<RestorePayload>(OUTBOX_KINDS.restore, { ids }, entries.length === 1 ? `撤销删除「${entries[0]!.name}」` : `撤销删除 ${entries.length} 项`);
  for (const e of entries) addToFolder(queryClient, { category: e.category, spaceId: e.spaceId }, e.parentId, e);
}

export async function queueFavorite(entries: FileEntry[], on: boolean): Promise<void> {
  const ids = entries.map((e) => e.id);
  const what = entries.length === 1 ? `「${entries[0]!.name}」` : `${entries.length} 项`;
  await enqueueOutbox<FavoritePayload>(OUTBOX_KINDS.favorite, { ids, on }, `${on ? '收藏' : '取消收藏'}${what}`);
  patchEntries(queryClient, ids, (e) => ({ ...e, favorite: on }));
}

/** Answers the id of the file's draft, shown until the server's own replaces it. */
export async function queueCreateTxt(req: CreateTxtRequest, scope: FolderScope): Promise<string> {
  const id = tempId();
  await enqueueOutbox<CreateTxtPayload>(OUTBOX_KINDS.createTxt, { req, tempId: id }, `新建文本文件「${req.name}」`);
  addToFolder(queryClient, scope, req.parentId, draftEntry(id, req.name, false, scope, req.parentId, new TextEncoder().encode(req.content).length));
  return id;
}

// ---- replay ----------------------------------------------------------------------------------------

/** Sends with the op id, quietly: the outbox list shows refusals, no toast interrupts other work. */
const quietly = (opId: string, signal: AbortSignal): CallOptions => ({ headers: { [HEADER_CLIENT_OP_ID]: opId }, onError: () => undefined, signal });

/** A coded refusal is the user's to decide on; a missing answer or an ended session is not (the row waits). */
export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ApiCallError) || (error.failure.kind !== 'badRequest' && error.status !== 404 && error.status !== 409)) return null;
  const code = error.errorCode;
  // The same id is still running (a reload replayed it meanwhile): its answer comes on the next pass.
  if (code === ERRORS.OP_IN_PROGRESS.code) return null;
  if (code === ERRORS.NAME_CONFLICT.code || code === ERRORS.CONFLICT_DECISION_REQUIRED.code) return { state: 'conflict', reason: '目标位置已有同名项' };
  if (error.status === 404) return { state: 'failed', reason: '文件或目标文件夹已不存在' };
  return { state: 'failed', reason: error.message || '服务器拒绝了此操作' };
}

/** After any replayed change the cached lists are asked again (the server's order and ids win). */
const refreshLists = () => queryClient.invalidateQueries({ queryKey: ['files'] });

export function registerFileOutboxExecutors(): void {
  registerOutboxExecutor<MkdirPayload, FileEntry>(OUTBOX_KINDS.mkdir, {
    send: (p, opId, signal) => api.call(FILES.mkdir, p.req, quietly(opId, signal)),
    refusal: refusalOf,
    sent: async (p, made) => {
      await refreshLists();
      return { [p.tempId]: made.id };
    },
  });
  registerOutboxExecutor<RenamePayload, FileEntry>(OUTBOX_KINDS.rename, {
    send: (p, opId, signal) => api.call(FILES.rename, { id: p.id, name: p.name }, quietly(opId, signal)),
    refusal: refusalOf,
    sent: () => void refreshLists(),
  });
  registerOutboxExecutor<CopyMovePayload, unknown>(OUTBOX_KINDS.copyMove, {
    send: (p, opId, signal) => api.call(p.op === 'copy' ? FILES.copy : FILES.move, p.req, quietly(opId, signal)),
    refusal: refusalOf,
    sent: () => void refreshLists(),
  });
  registerOutboxExecutor<RemovePayload, unknown>(OUTBOX_KINDS.remove, {
    send: (p, opId, signal) => api.call(FILES.removeFiles, { ids: p.ids }, quietly(opId, signal)),
    refusal: refusalOf,
    sent: () => void refreshLists(),
  });
  registerOutboxExecutor<RestorePayload, unknown>(OUTBOX_KINDS.restore, {
    send: (p, opId, signal) => api.call(FILE_STATES.recycleRestore, { ids: p.ids }, quietly(opId, signal)),
    refusal: refusalOf,
    sent: () => void refreshLists(),
  });
  registerOutboxExecutor<FavoritePayload, unknown>(OUTBOX_KINDS.favorite, {
    send: (p, opId, signal) => api.call(p.on ? FILE_STATES.favoriteAdd : FILE_STATES.favoriteRemove, { ids: p.ids }, quietly(opId, signal)),
    refusal: refusalOf,
    sent: () => void refreshLists(),
  });
  registerOutboxExecutor<CreateTxtPayload, FileEntry>(OUTBOX_KINDS.createTxt, {
    // The same op id gets the same answer: after a clash, the hold it names is decided with a second id.
    async send(p, opId, signal) {
      const answer = await api.call(FILES.createTxt, p.req, quietly(opId, signal));
      if (answer.status === 'created') return answer.file;
      if (!p.decision) throw new ApiCallError(400, { kind: 'badRequest', errorCode: ERRORS.NAME_CONFLICT.code, errorMessage: ERRORS.NAME_CONFLICT.message }, undefined);
      const kept = await api.call(FILES.keepOnCreateTxt, { holdId: answer.holdId, decision: p.decision }, quietly(`${opId}-k`, signal));
      if (kept.status !== 'created') throw new ApiCallError(400, { kind: 'badRequest', errorCode: ERRORS.TXT_HOLD_NOT_FOUND.code, errorMessage: ERRORS.TXT_HOLD_NOT_FOUND.message }, undefined);
      return kept.file;
    },
    refusal: refusalOf,
    sent: async (p, made) => {
      await refreshLists();
      return { [p.tempId]: made.id };
    },
  });
}

/** The decisions a conflicting copy or move is retried with: one choice for every clash. */
export function copyMoveWithDecision(p: CopyMovePayload, decision: ConflictDecision): CopyMovePayload {
  return { ...p, req: { ...p.req, decisions: Object.fromEntries(p.req.ids.map((id) => [id, decision])) } };
}
