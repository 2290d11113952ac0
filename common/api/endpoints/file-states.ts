import { Type, type Static } from 'typebox';
import { bytes, data, endpoint } from '../endpoint';
import { API } from '../paths';
import { Decisions, IdList, IdParams, IdString, NullableCursor, PageSize } from '../schemas';
import type { FileListResponse, IdsResponse, RecyclePurgeResponse, RecycleRestoreResponse, VersionListResponse } from '../types';

/** Recycle bin, favorites, locks and versions (ours: the spec does not show these calls). */

/** A page of the recycle bin (the caller's deleted roots, newest first) or of 我的收藏. */
export const PageBody = Type.Object({
  cursor: Type.Optional(NullableCursor),
  /** 1..500, default 100. */
  pageSize: Type.Optional(PageSize),
});
export type PageRequest = Static<typeof PageBody>;

/**
 * Restore to the original place. When the original folder is gone (purged, or itself in the bin)
 * the missing folders are recreated along the original path (their names, in the original
 * category/space). Name clashes at the target work like copy/move: CONFLICT_DECISION_REQUIRED,
 * then a retry with decisions ('overwrite' is treated like 'rename' for folders).
 */
export const RecycleRestoreBody = Type.Object({ ids: IdList, decisions: Type.Optional(Decisions) });
export type RecycleRestoreRequest = Static<typeof RecycleRestoreBody>;

/** Deletes for good the given recycle-bin entries, or with `all: true` the caller's whole recycle bin. */
export const RecyclePurgeBody = Type.Object({ ids: Type.Optional(IdList), all: Type.Optional(Type.Boolean()) });
export type RecyclePurgeRequest = Static<typeof RecyclePurgeBody>;

/** favorite add/remove, lock, unlock: a batch of ids. */
export const IdsBody = Type.Object({ ids: IdList });
export type IdsRequest = Static<typeof IdsBody>;

export const VersionListBody = Type.Object({ id: IdString });
export type VersionListRequest = Static<typeof VersionListBody>;

/** Restores an old version as the new current content (the current one becomes a version). */
export const VersionRestoreBody = Type.Object({ id: IdString, versionId: IdString });
export type VersionRestoreRequest = Static<typeof VersionRestoreBody>;

const member = 'member' as const;

export const FILE_STATES = {
  recycleList: endpoint({ method: 'POST', path: API.recycleList, access: member, action: null, body: PageBody, response: data<FileListResponse>() }),
  recycleRestore: endpoint({ method: 'POST', path: API.recycleRestore, access: member, action: 'file.restore', body: RecycleRestoreBody, response: data<RecycleRestoreResponse>() }),
  recyclePurge: endpoint({ method: 'POST', path: API.recyclePurge, access: member, action: 'file.purge', body: RecyclePurgeBody, response: data<RecyclePurgeResponse>() }),
  favoriteAdd: endpoint({ method: 'POST', path: API.favoriteAdd, access: member, action: 'file.favorite', body: IdsBody, response: data<IdsResponse>() }),
  favoriteRemove: endpoint({ method: 'POST', path: API.favoriteRemove, access: member, action: 'file.unfavorite', body: IdsBody, response: data<IdsResponse>() }),
  favoriteList: endpoint({ method: 'POST', path: API.favoriteList, access: member, action: null, body: PageBody, response: data<FileListResponse>() }),
  lock: endpoint({ method: 'POST', path: API.lock, access: member, action: 'file.lock', body: IdsBody, response: data<IdsResponse>() }),
  unlock: endpoint({ method: 'POST', path: API.unlock, access: member, action: 'file.unlock', body: IdsBody, response: data<IdsResponse>() }),
  versionList: endpoint({ method: 'POST', path: API.versionList, access: member, action: null, body: VersionListBody, response: data<VersionListResponse>() }),
  versionRestore: endpoint({ method: 'POST', path: API.versionRestore, access: member, action: 'file.versionRestore', body: VersionRestoreBody, response: data<IdsResponse>() }),
  /** An earlier version's bytes (URL: versionDownloadUrl), Range honoured like a file's download. */
  versionDownload: endpoint({ method: 'GET', path: `${API.versionDownloadPrefix}:id`, access: member, action: 'file.versionDownload', params: IdParams, response: bytes }),
};
