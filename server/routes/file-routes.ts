import type { FastifyInstance } from 'fastify';
import { FILES } from '../../common/api/endpoints/files';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { FileService } from '../services/file-service';
import type { SearchService } from '../services/search-service';
import type { TextService } from '../services/text-service';
import type { CopyMoveService } from '../services/copy-move-service';
import type { TrashService } from '../services/trash-service';

export interface FileRouteServices {
  files: FileService;
  copyMove: CopyMoveService;
  trash: TrashService;
  texts: TextService;
  search: SearchService;
}

/** The file calls of spec §7 (declared in common/api/endpoints/files.ts). */
export function registerFileRoutes(app: FastifyInstance, s: FileRouteServices): void {
  route(app, FILES.list, async (request) => ({ data: await s.files.list(callerOf(request), request.body) }));
  route(app, FILES.multiList, async (request) => ({ data: { items: await s.files.multiList(callerOf(request), request.body.ids) } }));
  route(app, FILES.catalog, async (request) => ({ data: await s.files.catalog(callerOf(request), request.body.id) }));
  route(app, FILES.dirList, async (request) => ({ data: await s.files.dirList(callerOf(request), request.body) }));
  route(app, FILES.mkdir, async (request) => ({ data: await s.files.mkdir(callerOf(request), request.body) }));
  route(app, FILES.rename, async (request) => ({ data: await s.files.rename(callerOf(request), request.body) }));
  route(app, FILES.copy, async (request) => ({ data: await s.copyMove.copy(callerOf(request), request.body) }));
  route(app, FILES.move, async (request) => ({ data: await s.copyMove.move(callerOf(request), request.body) }));
  route(app, FILES.removeFiles, async (request) => ({ data: await s.trash.remove(callerOf(request), request.body) }));
  route(app, FILES.keywordList, async (request) => ({ data: await s.search.keyword(callerOf(request), request.query) }));
  route(app, FILES.unifiedSearch, async (request) => ({ data: await s.search.unified(callerOf(request), request.query) }));
  route(app, FILES.createTxt, async (request) => ({ data: await s.texts.createTxt(callerOf(request), request.body) }));
  route(app, FILES.keepOnCreateTxt, async (request) => ({ data: await s.texts.keepOnCreateTxt(callerOf(request), request.body) }));
}
