import type { FastifyInstance } from 'fastify';
import { CLIENT_RELEASES } from '../../common/api/endpoints/client-releases';
import { CONFIG } from '../../common/api/endpoints/config';
import { route } from '../http/endpoint-route';
import { sendContent } from '../http/send-content';
import { callerOf } from '../http/session-guard';
import type { ClientReleaseService, ClientType } from '../services/client-release-service';

/** The desktop's version check and 客户端版本 (declared in common/api/endpoints/config.ts and client-releases.ts). */
export function registerClientReleaseRoutes(app: FastifyInstance, releases: ClientReleaseService): void {
  route(app, CONFIG.clientVersion, async (request) => ({ data: await releases.current(request.caller, request.query.clientType as ClientType) }));
  route(app, CLIENT_RELEASES.list, async (request) => ({ data: await releases.list(callerOf(request)) }));
  route(app, CLIENT_RELEASES.save, async (request) => ({ data: await releases.save(callerOf(request), request.body) }));
  route(app, CLIENT_RELEASES.installer, async (request, reply) => {
    const file = await releases.installer(request.caller, request.query.clientType as ClientType, request.query.t);
    return sendContent(request, reply, file);
  });
}
