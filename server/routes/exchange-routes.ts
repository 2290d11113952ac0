import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import type { KeepOnDownloadResponse, ProcessedListRequest, ProcessedListResponse, SwapCheckRequest, SwapCheckResponse } from '../../common/api/sharing';
import { FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { requirePlatformHeader } from '../http/client-headers';
import { callerOf } from '../http/session-guard';
import type { ExchangeService } from '../services/sharing/exchange-service';
import { idList, idString } from './schemas';

const idsBody = { body: { type: 'object', required: ['ids'], properties: { ids: idList } } };

/** The exchange area's calls of spec §7 (checkSwap, fileSafe/check, processed/list, keepOnDownload). */
export function registerExchangeRoutes(app: FastifyInstance, exchange: ExchangeService): void {
  app.post(API.checkSwap, { schema: idsBody }, async (request): Promise<ApiOk<SwapCheckResponse>> => ({
    data: await exchange.check(callerOf(request), (request.body as SwapCheckRequest).ids, true),
  }));
  app.post(API.fileSafeCheck, { schema: idsBody }, async (request): Promise<ApiOk<SwapCheckResponse>> => ({
    data: await exchange.check(callerOf(request), (request.body as SwapCheckRequest).ids, false),
  }));
  app.post(
    API.processedList,
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            ids: { type: 'array', items: idString, maxItems: 1000 },
            decision: { type: 'string', enum: ['dismiss', 'delete'] },
            cursor: { anyOf: [{ type: 'string', maxLength: 2048 }, { type: 'null' }] },
            pageSize: { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE },
          },
        },
      },
    },
    async (request): Promise<ApiOk<ProcessedListResponse>> => ({ data: await exchange.processed(callerOf(request), request.body as ProcessedListRequest) }),
  );
  app.get(
    API.keepOnDownload,
    { schema: { querystring: { type: 'object', required: ['id'], properties: { id: idString } } } },
    async (request): Promise<ApiOk<KeepOnDownloadResponse>> => {
      // It changes state (a confirmation is recorded): like keepOnUpload, no cross-site GET may do it.
      requirePlatformHeader(request);
      return { data: await exchange.keepOnDownload(callerOf(request), (request.query as { id: string }).id) };
    },
  );
}
