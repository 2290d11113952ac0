import type { FastifyInstance } from 'fastify';
import { FILE_STATES } from '../../common/api/endpoints/file-states';
import { route } from '../http/endpoint-route';
import { sendContent } from '../http/send-content';
import { callerOf } from '../http/session-guard';
import type { FileStateService } from '../services/file-state-service';
import type { TrashService } from '../services/trash-service';

/** Recycle bin, favorites, locks and versions (declared in common/api/endpoints/file-states.ts). */
export function registerFileStateRoutes(app: FastifyInstance, trash: TrashService, states: FileStateService): void {
  route(app, FILE_STATES.recycleList, async (request) => ({ data: await trash.list(callerOf(request), request.body ?? {}) }));
  route(app, FILE_STATES.recycleRestore, async (request) => ({ data: await trash.restore(callerOf(request), request.body) }));
  route(app, FILE_STATES.recyclePurge, async (request) => ({ data: await trash.purge(callerOf(request), request.body) }));

  route(app, FILE_STATES.favoriteAdd, async (request) => ({ data: await states.addFavorites(callerOf(request), request.body.ids) }));
  route(app, FILE_STATES.favoriteRemove, async (request) => ({ data: await states.removeFavorites(callerOf(request), request.body.ids) }));
  route(app, FILE_STATES.favoriteList, async (request) => ({ data: await states.listFavorites(callerOf(request), request.body ?? {}) }));

  route(app, FILE_STATES.lock, async (request) => ({ data: await states.lock(callerOf(request), request.body.ids) }));
  route(app, FILE_STATES.unlock, async (request) => ({ data: await states.unlock(callerOf(request), request.body.ids) }));

  route(app, FILE_STATES.versionList, async (request) => ({ data: await states.versions(callerOf(request), request.body.id) }));
  route(app, FILE_STATES.versionRestore, async (request) => ({ data: await states.restoreVersion(callerOf(request), request.body.id, request.body.versionId) }));
  route(app, FILE_STATES.versionDownload, async (request, reply) => sendContent(request, reply, await states.versionContent(callerOf(request), request.params.id)));
}
