import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type {
  FileListResponse,
  IdsRequest,
  IdsResponse,
  PageRequest,
  RecyclePurgeRequest,
  RecyclePurgeResponse,
  RecycleRestoreRequest,
  RecycleRestoreResponse,
  VersionListRequest,
  VersionListResponse,
  VersionRestoreRequest,
} from '../../common/api/types';
import { FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { sendContent } from '../http/send-content';
import { callerOf } from '../http/session-guard';
import type { FileStateService } from '../services/file-state-service';
import type { TrashService } from '../services/trash-service';
import { decisions, idList, idString } from './schemas';

const pageSchema = {
  body: {
    type: 'object',
    properties: {
      cursor: { anyOf: [{ type: 'string', maxLength: 2048 }, { type: 'null' }] },
      pageSize: { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE },
    },
  },
};
const idsSchema = { body: { type: 'object', required: ['ids'], properties: { ids: idList } } };

/** Recycle bin, favorites, locks and versions (ours: the spec does not show these calls). */
export function registerFileStateRoutes(app: FastifyInstance, trash: TrashService, states: FileStateService): void {
  app.post(API.recycleList, { schema: pageSchema }, async (request): Promise<ApiOk<FileListResponse>> => ({
    data: await trash.list(callerOf(request), (request.body ?? {}) as PageRequest),
  }));
  app.post(
    API.recycleRestore,
    { schema: { body: { type: 'object', required: ['ids'], properties: { ids: idList, decisions } } } },
    async (request): Promise<ApiOk<RecycleRestoreResponse>> => ({ data: await trash.restore(callerOf(request), request.body as RecycleRestoreRequest) }),
  );
  app.post(
    API.recyclePurge,
    { schema: { body: { type: 'object', properties: { ids: idList, all: { type: 'boolean' } } } } },
    async (request): Promise<ApiOk<RecyclePurgeResponse>> => ({ data: await trash.purge(callerOf(request), request.body as RecyclePurgeRequest) }),
  );

  app.post(API.favoriteAdd, { schema: idsSchema }, async (request): Promise<ApiOk<IdsResponse>> => ({
    data: await states.addFavorites(callerOf(request), (request.body as IdsRequest).ids),
  }));
  app.post(API.favoriteRemove, { schema: idsSchema }, async (request): Promise<ApiOk<IdsResponse>> => ({
    data: await states.removeFavorites(callerOf(request), (request.body as IdsRequest).ids),
  }));
  app.post(API.favoriteList, { schema: pageSchema }, async (request): Promise<ApiOk<FileListResponse>> => ({
    data: await states.listFavorites(callerOf(request), (request.body ?? {}) as PageRequest),
  }));

  app.post(API.lock, { schema: idsSchema }, async (request): Promise<ApiOk<IdsResponse>> => ({
    data: await states.lock(callerOf(request), (request.body as IdsRequest).ids),
  }));
  app.post(API.unlock, { schema: idsSchema }, async (request): Promise<ApiOk<IdsResponse>> => ({
    data: await states.unlock(callerOf(request), (request.body as IdsRequest).ids),
  }));

  app.post(
    API.versionList,
    { schema: { body: { type: 'object', required: ['id'], properties: { id: idString } } } },
    async (request): Promise<ApiOk<VersionListResponse>> => ({ data: await states.versions(callerOf(request), (request.body as VersionListRequest).id) }),
  );
  app.post(
    API.versionRestore,
    { schema: { body: { type: 'object', required: ['id', 'versionId'], properties: { id: idString, versionId: idString } } } },
    async (request): Promise<ApiOk<IdsResponse>> => {
      const body = request.body as VersionRestoreRequest;
      return { data: await states.restoreVersion(callerOf(request), body.id, body.versionId) };
    },
  );
  app.get(
    `${API.versionDownloadPrefix}:id`,
    { schema: { params: { type: 'object', required: ['id'], properties: { id: idString } } } },
    async (request, reply) => sendContent(request, reply, await states.versionContent(callerOf(request), (request.params as { id: string }).id)),
  );
}
