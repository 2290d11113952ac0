import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type {
  CreateTxtRequest,
  CreateTxtResponse,
  DirListRequest,
  DirListResponse,
  FileCatalogRequest,
  FileCatalogResponse,
  FileEntry,
  FileListRequest,
  FileListResponse,
  FileMultiListRequest,
  FileMultiListResponse,
  KeepOnCreateTxtRequest,
  KeepOnCreateTxtResponse,
  KeywordSearchQuery,
  MkdirRequest,
  RemoveFilesRequest,
  RemoveFilesResponse,
  RenameRequest,
  SearchResponse,
  CopyMoveRequest,
  CopyMoveResponse,
} from '../../common/api/types';
import { FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { FileService } from '../services/file-service';
import type { SearchService } from '../services/search-service';
import type { TextService } from '../services/text-service';
import type { CopyMoveService } from '../services/copy-move-service';
import type { TrashService } from '../services/trash-service';
import { category, decisions, idList, idString, nameString, nullableId, spaceId } from './schemas';

const listProperties = {
  parentId: nullableId,
  category,
  spaceId,
  sortField: { type: 'string', enum: ['name', 'size', 'updatedAt'] },
  sortOrder: { type: 'string', enum: ['asc', 'desc'] },
  cursor: { anyOf: [{ type: 'string', maxLength: 2048 }, { type: 'null' }] },
  pageSize: { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE },
} as const;

const listSchema = { body: { type: 'object', required: ['parentId', 'category'], properties: listProperties } };

const copyMoveSchema = {
  body: {
    type: 'object',
    required: ['ids', 'targetParentId', 'targetCategory'],
    properties: { ids: idList, targetParentId: nullableId, targetCategory: category, targetSpaceId: spaceId, decisions },
  },
};

const searchQuerySchema = {
  querystring: {
    type: 'object',
    required: ['keyword'],
    properties: {
      keyword: { type: 'string', minLength: 1, maxLength: 255 },
      category,
      spaceId: idString,
      cursor: { type: 'string', maxLength: 2048 },
      pageSize: { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE },
    },
  },
};

export interface FileRouteServices {
  files: FileService;
  copyMove: CopyMoveService;
  trash: TrashService;
  texts: TextService;
  search: SearchService;
}

/** The file calls of spec §7 (paths letter for letter). */
export function registerFileRoutes(app: FastifyInstance, s: FileRouteServices): void {
  app.post(API.fileList, { schema: listSchema }, async (request): Promise<ApiOk<FileListResponse>> => ({
    data: await s.files.list(callerOf(request), request.body as FileListRequest),
  }));

  app.post(
    API.fileMultiList,
    { schema: { body: { type: 'object', required: ['ids'], properties: { ids: idList } } } },
    async (request): Promise<ApiOk<FileMultiListResponse>> => ({
      data: { items: await s.files.multiList(callerOf(request), (request.body as FileMultiListRequest).ids) },
    }),
  );

  app.post(
    API.fileCatalog,
    { schema: { body: { type: 'object', required: ['id'], properties: { id: nullableId } } } },
    async (request): Promise<ApiOk<FileCatalogResponse>> => ({
      data: await s.files.catalog(callerOf(request), (request.body as FileCatalogRequest).id),
    }),
  );

  app.post(
    API.dirList,
    { schema: { body: { type: 'object', required: ['parentId', 'category'], properties: { parentId: nullableId, category, spaceId } } } },
    async (request): Promise<ApiOk<DirListResponse>> => ({ data: await s.files.dirList(callerOf(request), request.body as DirListRequest) }),
  );

  app.post(
    API.mkdir,
    {
      schema: {
        body: { type: 'object', required: ['parentId', 'category', 'name'], properties: { parentId: nullableId, category, spaceId, name: nameString } },
      },
    },
    async (request): Promise<ApiOk<FileEntry>> => ({ data: await s.files.mkdir(callerOf(request), request.body as MkdirRequest) }),
  );

  app.post(
    API.rename,
    { schema: { body: { type: 'object', required: ['id', 'name'], properties: { id: idString, name: nameString } } } },
    async (request): Promise<ApiOk<FileEntry>> => ({ data: await s.files.rename(callerOf(request), request.body as RenameRequest) }),
  );

  app.post(API.copy, { schema: copyMoveSchema }, async (request): Promise<ApiOk<CopyMoveResponse>> => ({
    data: await s.copyMove.copy(callerOf(request), request.body as CopyMoveRequest),
  }));

  app.post(API.move, { schema: copyMoveSchema }, async (request): Promise<ApiOk<CopyMoveResponse>> => ({
    data: await s.copyMove.move(callerOf(request), request.body as CopyMoveRequest),
  }));

  app.post(
    API.removeFiles,
    { schema: { body: { type: 'object', required: ['ids'], properties: { ids: idList } } } },
    async (request): Promise<ApiOk<RemoveFilesResponse>> => ({ data: await s.trash.remove(callerOf(request), request.body as RemoveFilesRequest) }),
  );

  app.get(API.keywordList, { schema: searchQuerySchema }, async (request): Promise<ApiOk<SearchResponse>> => ({
    data: await s.search.keyword(callerOf(request), request.query as KeywordSearchQuery),
  }));

  app.get(API.unifiedSearch, { schema: searchQuerySchema }, async (request): Promise<ApiOk<SearchResponse>> => ({
    data: await s.search.unified(callerOf(request), request.query as KeywordSearchQuery),
  }));

  app.post(
    API.createTxt,
    {
      schema: {
        body: {
          type: 'object',
          required: ['parentId', 'category', 'name', 'content'],
          properties: { parentId: nullableId, category, spaceId, name: nameString, content: { type: 'string' } },
        },
      },
    },
    async (request): Promise<ApiOk<CreateTxtResponse>> => ({ data: await s.texts.createTxt(callerOf(request), request.body as CreateTxtRequest) }),
  );

  app.post(
    API.keepOnCreateTxt,
    {
      schema: {
        body: {
          type: 'object',
          required: ['holdId', 'decision'],
          properties: { holdId: idString, decision: { type: 'string', enum: ['rename', 'newVersion', 'giveUp'] } },
        },
      },
    },
    async (request): Promise<ApiOk<KeepOnCreateTxtResponse>> => ({
      data: await s.texts.keepOnCreateTxt(callerOf(request), request.body as KeepOnCreateTxtRequest),
    }),
  );
}
