/** Every file call the files pages make (paths in common/api/paths.ts, payloads in common/api/types.ts). */
import type { PageRequest } from '../../../common/api/endpoints/file-states';
import type { CopyMoveRequest, CreateTxtRequest, FileCatalogRequest, KeepOnCreateTxtRequest, KeywordSearchQuery, MkdirRequest, RenameRequest, UnifiedSearchQuery } from '../../../common/api/endpoints/files';
import { ERRORS } from '../../../common/api/errors';
import type {
  ConflictDecision,
  CreateTxtResponse,
  DirListResponse,
  FileCatalogResponse,
  FileCategory,
  FileEntry,
  FileListResponse,
  FileVersion,
  IdsResponse,
  KeepOnCreateTxtResponse,
  NameConflict,
  RecyclePurgeResponse,
  RecycleRestoreResponse,
  RemoveFilesResponse,
  SearchResponse,
  ContentSearchPage,
  SpaceInfo,
  SpaceMember,
  SpaceRole,
  CopyMoveResponse,
} from '../../../common/api/types';
import { FILE_LIST_DEFAULT_PAGE_SIZE } from '../../../common/api/types';
import { FILE_STATES } from '../../../common/api/endpoints/file-states';
import { FILES } from '../../../common/api/endpoints/files';
import { GROUPS } from '../../../common/api/endpoints/groups';
import { folderListRequest } from '../../../common/api/file-list';
import type { SharedListResponse } from '../../../common/api/sharing';
import { SHARES, type SharedListRequest } from '../../../common/api/endpoints/shares';
import { api } from '../../lib/api';
import { ApiCallError, type CallOptions } from '../../lib/api-client';
import type { SortState } from './listing/sort-state';
import { PRE_UPLOAD, type MultipleFileCheckRequest } from '../../../common/api/endpoints/pre-upload';
import type { MultipleFileCheckResult } from '../../../common/transfer/checks';
import type { UploadTarget } from '../../../common/transfer/engine-api';

/** Where a folder listing lives: a personal category, or a group/public space. */
export interface FolderScope {
  category: FileCategory;
  spaceId: string | null;
}

export function listFiles(scope: FolderScope, parentId: string | null, sort: SortState, cursor: string | null, signal?: AbortSignal): Promise<FileListResponse> {
  return api.call(FILES.list, folderListRequest(scope, parentId, sort, cursor), { signal });
}

/** 共享文件: what others share with the caller (the top: newest share first, optionally of one sharer; below: a shared folder). */
export function listSharedFiles(parentId: string | null, sort: SortState, cursor: string | null, signal?: AbortSignal, sharerId: string | null = null): Promise<SharedListResponse> {
  const body: SharedListRequest = { parentId, sharerId, cursor, pageSize: FILE_LIST_DEFAULT_PAGE_SIZE, sortField: sort.field, sortOrder: sort.order };
  return api.call(SHARES.sharedList, body, { signal });
}

export function listFavorites(cursor: string | null, signal?: AbortSignal): Promise<FileListResponse> {
  const body: PageRequest = { cursor, pageSize: FILE_LIST_DEFAULT_PAGE_SIZE };
  return api.call(FILE_STATES.favoriteList, body, { signal });
}

export function listRecycleBin(cursor: string | null, signal?: AbortSignal): Promise<FileListResponse> {
  const body: PageRequest = { cursor, pageSize: FILE_LIST_DEFAULT_PAGE_SIZE };
  return api.call(FILE_STATES.recycleList, body, { signal });
}

function searchQuery(q: KeywordSearchQuery): KeywordSearchQuery {
  return { keyword: q.keyword, category: q.category, spaceId: q.spaceId, cursor: q.cursor, pageSize: q.pageSize ?? FILE_LIST_DEFAULT_PAGE_SIZE };
}

export function keywordSearch(q: KeywordSearchQuery, signal?: AbortSignal): Promise<SearchResponse> {
  return api.call(FILES.keywordList, searchQuery(q), { signal });
}

export function unifiedSearch(q: Pick<UnifiedSearchQuery, 'keyword' | 'cursor' | 'contentCursor'>, signal?: AbortSignal): Promise<SearchResponse> {
  return api.call(FILES.unifiedSearch, { ...searchQuery(q), ...(q.contentCursor ? { contentCursor: q.contentCursor } : {}) }, { signal });
}

/** A page of 统一搜索's content hits (the first page comes with the name hits' first page). */
export async function unifiedContentSearch(keyword: string, contentCursor: string | null, signal?: AbortSignal): Promise<ContentSearchPage> {
  const res = await unifiedSearch({ keyword, contentCursor: contentCursor ?? undefined }, signal);
  return res.content ?? { items: [], nextCursor: null };
}

export function fileCatalog(id: string | null, signal?: AbortSignal): Promise<FileCatalogResponse> {
  const body: FileCatalogRequest = { id };
  return api.call(FILES.catalog, body, { signal });
}

export function entriesByIds(ids: string[]): Promise<FileEntry[]> {
  return api.call(FILES.multiList, { ids }).then((r) => r.items);
}

export function listDirs(scope: FolderScope, parentId: string | null): Promise<DirListResponse> {
  return api.call(FILES.dirList, { parentId, category: scope.category, spaceId: scope.spaceId });
}

export function makeFolder(req: MkdirRequest): Promise<FileEntry> {
  return api.call(FILES.mkdir, req);
}

export function renameFile(req: RenameRequest): Promise<FileEntry> {
  return api.call(FILES.rename, req);
}

export function removeFiles(ids: string[]): Promise<RemoveFilesResponse> {
  return api.call(FILES.removeFiles, { ids });
}

/** A call that may answer CONFLICT_DECISION_REQUIRED: either done, or the clashes to decide on. */
export type Decidable<T> = { done: true; result: T } | { done: false; conflicts: NameConflict[] };

/** Runs `call` (an api.call with the options given) with the conflict answer left to the caller. */
async function decidable<T>(call: (options: CallOptions) => Promise<T>): Promise<Decidable<T>> {
  try {
    return { done: true, result: await call({ quietCodes: [ERRORS.CONFLICT_DECISION_REQUIRED.code] }) };
  } catch (e) {
    if (e instanceof ApiCallError && e.errorCode === ERRORS.CONFLICT_DECISION_REQUIRED.code) {
      const conflicts = (e.body as { conflicts?: NameConflict[] } | undefined)?.conflicts;
      return { done: false, conflicts: Array.isArray(conflicts) ? conflicts : [] };
    }
    throw e;
  }
}

export function copyOrMove(op: 'copy' | 'move', req: CopyMoveRequest): Promise<Decidable<CopyMoveResponse>> {
  return decidable((options) => api.call(op === 'copy' ? FILES.copy : FILES.move, req, options));
}

export function restoreFromRecycle(ids: string[], decisions?: Record<string, ConflictDecision>): Promise<Decidable<RecycleRestoreResponse>> {
  return decidable((options) => api.call(FILE_STATES.recycleRestore, { ids, decisions }, options));
}

export function purgeRecycle(req: { ids: string[] } | { all: true }): Promise<RecyclePurgeResponse> {
  return api.call(FILE_STATES.recyclePurge, req);
}

export function setFavorite(ids: string[], on: boolean): Promise<IdsResponse> {
  return api.call(on ? FILE_STATES.favoriteAdd : FILE_STATES.favoriteRemove, { ids });
}

export function setLocked(ids: string[], on: boolean): Promise<IdsResponse> {
  return api.call(on ? FILE_STATES.lock : FILE_STATES.unlock, { ids });
}

export function listVersions(id: string): Promise<FileVersion[]> {
  return api.call(FILE_STATES.versionList, { id }).then((r) => r.versions);
}

export function restoreVersion(id: string, versionId: string): Promise<IdsResponse> {
  return api.call(FILE_STATES.versionRestore, { id, versionId });
}

export function createTxt(req: CreateTxtRequest): Promise<CreateTxtResponse> {
  return api.call(FILES.createTxt, req);
}

export function keepOnCreateTxt(req: KeepOnCreateTxtRequest): Promise<KeepOnCreateTxtResponse> {
  return api.call(FILES.keepOnCreateTxt, req);
}

// ---- spaces --------------------------------------------------------------------------------------

export function publicSpace(signal?: AbortSignal): Promise<SpaceInfo> {
  return api.call(GROUPS.publicSpace, undefined, { signal });
}

export function listGroups(signal?: AbortSignal): Promise<SpaceInfo[]> {
  return api.call(GROUPS.list, undefined, { signal });
}

export function createGroup(name: string): Promise<SpaceInfo> {
  return api.call(GROUPS.create, { name });
}

export function renameGroup(id: string, name: string): Promise<SpaceInfo> {
  return api.call(GROUPS.rename, { id, name });
}

export function deleteGroup(id: string): Promise<unknown> {
  return api.call(GROUPS.delete, { id });
}

export function listGroupMembers(id: string): Promise<SpaceMember[]> {
  return api.call(GROUPS.memberList, { id }).then((r) => r.members);
}

export function addGroupMember(id: string, username: string, role: SpaceRole): Promise<unknown> {
  return api.call(GROUPS.memberAdd, { id, username, role });
}

export function setGroupMemberRole(id: string, userId: string, role: SpaceRole): Promise<unknown> {
  return api.call(GROUPS.memberSetRole, { id, userId, role });
}

export function removeGroupMember(id: string, userId: string): Promise<unknown> {
  return api.call(GROUPS.memberRemove, { id, userId });
}

/**
 * The pre-upload checks of the picked files against the target folder (keys are the files' indexes),
 * so the page can ask about clashes before queueing. Failures are quiet: the caller then queues
 * without asking, and the transfer engine holds a clash in the transfer list instead.
 */
export async function checkPickedFiles(files: ReadonlyArray<{ name: string; size: number }>, target: UploadTarget, signal?: AbortSignal): Promise<Map<string, MultipleFileCheckResult>> {
  const body: MultipleFileCheckRequest = {
    items: files.map((f, i) => ({ key: String(i), name: f.name, size: f.size, parentId: target.parentId, category: target.category })),
  };
  const answer = await api.call(PRE_UPLOAD.multipleFileCheck, body, { signal, onError: () => undefined });
  return new Map(answer.results.map((r) => [r.key, r]));
}
