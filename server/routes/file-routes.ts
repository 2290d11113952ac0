import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type {
  FileCatalogRequest,
  FileCatalogResponse,
  FileEntry,
  FileListRequest,
  FileListResponse,
  MkdirRequest,
  RenameRequest,
} from '../../common/api/types';
import { FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { FileService } from '../services/file-service';
import { category, idString, nameString, nullableId } from './schemas';

const listSchema = {
  body: {
    type: 'object',
    required: ['parentId', 'category'],
    properties: {
      parentId: nullableId,
      category,
      sortField: { type: 'string', enum: ['name', 'size', 'updatedAt'] },
      sortOrder: { type: 'string', enum: ['asc', 'desc'] },
      cursor: { anyOf: [{ type: 'string', maxLength: 2048 }, { type: 'null' }] },
      pageSize: { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE },
    },
  },
};

export function registerFileRoutes(app: FastifyInstance, files: FileService): void {
  app.post(API.fileList, { schema: listSchema }, async (request): Promise<ApiOk<FileListResponse>> => ({
    data: await files.list(callerOf(request), request.body as FileListRequest),
  }));

  app.post(
    API.fileCatalog,
    { schema: { body: { type: 'object', required: ['id'], properties: { id: nullableId } } } },
    async (request): Promise<ApiOk<FileCatalogResponse>> => ({
      data: await files.catalog(callerOf(request), (request.body as FileCatalogRequest).id),
    }),
  );

  app.post(
    API.mkdir,
    {
      schema: {
        body: {
          type: 'object',
          required: ['parentId', 'category', 'name'],
          properties: { parentId: nullableId, category, name: nameString },
        },
      },
    },
    async (request): Promise<ApiOk<FileEntry>> => ({ data: await files.mkdir(callerOf(request), request.body as MkdirRequest) }),
  );

  app.post(
    API.rename,
    { schema: { body: { type: 'object', required: ['id', 'name'], properties: { id: idString, name: nameString } } } },
    async (request): Promise<ApiOk<FileEntry>> => ({ data: await files.rename(callerOf(request), request.body as RenameRequest) }),
  );
}
