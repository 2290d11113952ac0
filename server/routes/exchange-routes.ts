import type { FastifyInstance } from 'fastify';
import { EXCHANGE } from '../../common/api/endpoints/exchange';
import { requirePlatformHeader } from '../http/client-headers';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { ExchangeService } from '../services/sharing/exchange-service';

/** The exchange area's calls of spec §7 (declared in common/api/endpoints/exchange.ts). */
export function registerExchangeRoutes(app: FastifyInstance, exchange: ExchangeService): void {
  route(app, EXCHANGE.checkSwap, async (request) => ({ data: await exchange.check(callerOf(request), request.body.ids, true) }));
  route(app, EXCHANGE.fileSafeCheck, async (request) => ({ data: await exchange.check(callerOf(request), request.body.ids, false) }));
  route(app, EXCHANGE.processedList, async (request) => ({ data: await exchange.processed(callerOf(request), request.body) }));
  route(app, EXCHANGE.keepOnDownload, async (request) => {
    // It changes state (a confirmation is recorded): like keepOnUpload, no cross-site GET may do it.
    requirePlatformHeader(request);
    return { data: await exchange.keepOnDownload(callerOf(request), request.query.id) };
  });
}
