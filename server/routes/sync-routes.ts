import type { FastifyInstance } from 'fastify';
import { SYNC } from '../../common/api/endpoints/sync';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { SyncService } from '../services/sync-service';

/** The desktop sync's routes (declared in common/api/endpoints/sync.ts). */
export function registerSyncRoutes(app: FastifyInstance, sync: SyncService): void {
  // SynContentResponse, written by the service as text with one item per line (see SyncService.content).
  route(app, SYNC.content, async (request, reply) => reply.type('application/json; charset=utf-8').send(await sync.content(callerOf(request), request.body)));
  route(app, SYNC.check, async (request) => ({ data: await sync.check(callerOf(request), request.body) }));
  route(app, SYNC.remove, async (request) => ({ data: await sync.remove(callerOf(request), request.body) }));
}
