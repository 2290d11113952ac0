import type { FastifyInstance } from 'fastify';
import { SHARES } from '../../common/api/endpoints/shares';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { FileSecurityService } from '../services/sharing/file-security-service';
import type { OnlineEditService } from '../services/sharing/online-edit-service';
import type { SharedFilesService } from '../services/sharing/shared-files-service';
import type { ShareService } from '../services/sharing/share-service';

export interface ShareRouteServices {
  shares: ShareService;
  sharedFiles: SharedFilesService;
  security: FileSecurityService;
  onlineEdit: OnlineEditService;
}

/** Internal shares, 共享文件, the file security settings and the online-edit question (declared in common/api/endpoints/shares.ts). */
export function registerShareRoutes(app: FastifyInstance, s: ShareRouteServices): void {
  route(app, SHARES.sharedList, async (request) => ({ data: await s.sharedFiles.list(callerOf(request), request.body) }));
  route(app, SHARES.create, async (request) => ({ data: await s.shares.create(callerOf(request), request.body) }));
  route(app, SHARES.update, async (request) => ({ data: await s.shares.update(callerOf(request), request.body) }));
  route(app, SHARES.revoke, async (request) => ({ data: await s.shares.revoke(callerOf(request), request.body.ids) }));
  route(app, SHARES.mine, async (request) => ({ data: await s.shares.mine(callerOf(request), request.body) }));
  route(app, SHARES.fileSecurityGet, async (request) => ({ data: await s.security.get(callerOf(request)) }));
  route(app, SHARES.fileSecurityUpdate, async (request) => ({ data: await s.security.update(callerOf(request), request.body) }));
  route(app, SHARES.canOperation, async (request) => ({ data: await s.onlineEdit.canOperate(callerOf(request), request.query.id) }));
}
