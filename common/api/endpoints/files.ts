import { Type, type Static } from 'typebox';
import { data, endpoint } from '../endpoint';
import { API } from '../paths';
import { Category, Decisions, FolderPlace, IdList, IdString, NameString, NullableCursor, NullableId, PageSize, SpaceId } from '../schemas';
import type {
  CopyMoveResponse,
  CreateTxtResponse,
  DirListResponse,
  FileCatalogResponse,
  FileEntry,
  FileListResponse,
  FileMultiListResponse,
  KeepOnCreateTxtResponse,
  RemoveFilesResponse,
  SearchResponse,
} from '../types';

/**
 * The file calls of spec §7 (paths letter for letter) and our search. mkdir, rename, copy, move,
 * removeFiles, createTxt and keepOnCreateTxt also take an X-Client-Op-Id header (HEADER_CLIENT_OP_ID
 * in client-env.ts): applied once per user.
 */

export const FileSortFieldSchema = Type.Enum(['name', 'size', 'updatedAt']);
export const SortOrderSchema = Type.Enum(['asc', 'desc']);

/** A folder listing. */
export const FileListBody = Type.Object({
  ...FolderPlace,
  sortField: Type.Optional(FileSortFieldSchema),
  sortOrder: Type.Optional(SortOrderSchema),
  /** Opaque keyset cursor from the previous page's `nextCursor`. */
  cursor: Type.Optional(NullableCursor),
  /** 1..500, default 100. */
  pageSize: Type.Optional(PageSize),
});
export type FileListRequest = Static<typeof FileListBody>;

/** Entries by id, in one call (unknown or inaccessible ids are left out): refreshes selected rows after a batch action. */
export const FileMultiListBody = Type.Object({ ids: IdList });
export type FileMultiListRequest = Static<typeof FileMultiListBody>;

/** The path of a folder, root first; `id` null = the root. */
export const FileCatalogBody = Type.Object({ id: NullableId });
export type FileCatalogRequest = Static<typeof FileCatalogBody>;

/** One level of the folder-picker tree for move/copy (folders only, sorted by name), loaded lazily by parent. */
export const DirListBody = Type.Object(FolderPlace);
export type DirListRequest = Static<typeof DirListBody>;

export const MkdirBody = Type.Object({ ...FolderPlace, name: NameString });
export type MkdirRequest = Static<typeof MkdirBody>;

export const RenameBody = Type.Object({ id: IdString, name: NameString });
export type RenameRequest = Static<typeof RenameBody>;

/**
 * Copy and move. The target is a folder (targetParentId) or the root of a category (targetParentId
 * null + targetCategory) or of a space (+ targetSpaceId). A first call without decisions answers
 * CONFLICT_DECISION_REQUIRED (with `conflicts`) and changes nothing when any name is taken; the retry
 * carries a decision for each conflicting id. Copying a folder copies its tree; contents are shared,
 * not duplicated, but count against quota.
 */
export const CopyMoveBody = Type.Object({
  ids: IdList,
  targetParentId: NullableId,
  targetCategory: Category,
  targetSpaceId: Type.Optional(SpaceId),
  decisions: Type.Optional(Decisions),
});
export type CopyMoveRequest = Static<typeof CopyMoveBody>;

/** To the recycle bin (folders with their tree). */
export const RemoveFilesBody = Type.Object({ ids: IdList });
export type RemoveFilesRequest = Static<typeof RemoveFilesBody>;

/**
 * `?keyword=..&category=..&spaceId=..&cursor=..&pageSize=..`: entries whose name contains the keyword
 * (case-insensitive) in one category (or space), any folder depth, sorted by name. The unified search
 * takes the same query without category/spaceId and searches every space the caller may see (all
 * personal categories, the public space, their groups); it also answers content hits (files whose
 * extracted text holds the keyword, SearchResponse.content: docs/documents.md "Search inside files").
 */
export const KeywordSearchQuerySchema = Type.Object({
  keyword: Type.String({ minLength: 1, maxLength: 255 }),
  category: Type.Optional(Category),
  spaceId: Type.Optional(IdString),
  cursor: Type.Optional(Type.String({ maxLength: 2048 })),
  pageSize: Type.Optional(PageSize),
});
export type KeywordSearchQuery = Static<typeof KeywordSearchQuerySchema>;

/**
 * The unified search's query: the keyword search's, plus `contentCursor` — the next page of content
 * hits (SearchResponse.content.nextCursor); such a page answers content hits only.
 */
export const UnifiedSearchQuerySchema = Type.Object({
  ...KeywordSearchQuerySchema.properties,
  contentCursor: Type.Optional(Type.String({ maxLength: 64 })),
});
export type UnifiedSearchQuery = Static<typeof UnifiedSearchQuerySchema>;

/** A UTF-8 text file (name must end with .txt unless it has an extension). */
export const CreateTxtBody = Type.Object({
  ...FolderPlace,
  name: NameString,
  /** At most TEXT_FILE_MAX_BYTES once encoded. */
  content: Type.String(),
});
export type CreateTxtRequest = Static<typeof CreateTxtBody>;

/** 'rename' → 'name (n).txt'; 'newVersion' → new version of the existing file; 'giveUp' → dropped. */
export const KeepOnCreateTxtBody = Type.Object({ holdId: IdString, decision: Type.Enum(['rename', 'newVersion', 'giveUp']) });
export type KeepOnCreateTxtRequest = Static<typeof KeepOnCreateTxtBody>;

const member = 'member' as const;

export const FILES = {
  list: endpoint({ method: 'POST', path: API.fileList, access: member, action: null, body: FileListBody, response: data<FileListResponse>() }),
  multiList: endpoint({ method: 'POST', path: API.fileMultiList, access: member, action: null, body: FileMultiListBody, response: data<FileMultiListResponse>() }),
  catalog: endpoint({ method: 'POST', path: API.fileCatalog, access: member, action: null, body: FileCatalogBody, response: data<FileCatalogResponse>() }),
  dirList: endpoint({ method: 'POST', path: API.dirList, access: member, action: null, body: DirListBody, response: data<DirListResponse>() }),
  mkdir: endpoint({ method: 'POST', path: API.mkdir, access: member, action: 'file.mkdir', body: MkdirBody, response: data<FileEntry>() }),
  rename: endpoint({ method: 'POST', path: API.rename, access: member, action: 'file.rename', body: RenameBody, response: data<FileEntry>() }),
  copy: endpoint({ method: 'POST', path: API.copy, access: member, action: 'file.copy', body: CopyMoveBody, response: data<CopyMoveResponse>() }),
  move: endpoint({ method: 'POST', path: API.move, access: member, action: 'file.move', body: CopyMoveBody, response: data<CopyMoveResponse>() }),
  removeFiles: endpoint({ method: 'POST', path: API.removeFiles, access: member, action: 'file.delete', body: RemoveFilesBody, response: data<RemoveFilesResponse>() }),
  keywordList: endpoint({ method: 'GET', path: API.keywordList, access: member, action: null, query: KeywordSearchQuerySchema, response: data<SearchResponse>() }),
  unifiedSearch: endpoint({ method: 'GET', path: API.unifiedSearch, access: member, action: null, query: UnifiedSearchQuerySchema, response: data<SearchResponse>() }),
  /** 'created', or 'held' when the name is taken (kept until keepOnCreateTxt decides). */
  createTxt: endpoint({ method: 'POST', path: API.createTxt, access: member, action: 'file.createTxt', body: CreateTxtBody, response: data<CreateTxtResponse>() }),
  keepOnCreateTxt: endpoint({
    method: 'POST',
    path: API.keepOnCreateTxt,
    access: member,
    action: 'file.createTxt',
    body: KeepOnCreateTxtBody,
    response: data<KeepOnCreateTxtResponse>(),
  }),
};
