import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import {
  SYNC_BATCH_MAX,
  type SynCheckRequest,
  type SynCheckResponse,
  type SynContentRequest,
  type SynRemoveRequest,
  type SynRemoveResponse,
} from '../../common/api/types';
import { callerOf } from '../http/session-guard';
import type { SyncService } from '../services/sync-service';
import { idString, nameString, sha256Hex } from './schemas';

/** The desktop sync's routes (documented in common/api/paths.ts, payloads in types.ts). */
export function registerSyncRoutes(app: FastifyInstance, sync: SyncService): void {
  app.post(
    API.syncContent,
    {
      schema: {
        body: {
          type: 'object',
          required: ['rootId'],
          properties: { rootId: idString, token: { anyOf: [sha256Hex, { type: 'null' }] } },
        },
      },
    },
    // SynContentResponse, as text with one item per line (see SyncService.content).
    async (request, reply) => reply.type('application/json; charset=utf-8').send(await sync.content(callerOf(request), request.body as SynContentRequest)),
  );

  app.post(
    API.syncCheck,
    {
      schema: {
        body: {
          type: 'object',
          required: ['items'],
          properties: {
            items: {
              type: 'array',
              maxItems: SYNC_BATCH_MAX,
              items: {
                type: 'object',
                required: ['key', 'name', 'size'],
                properties: { key: { type: 'string', minLength: 1, maxLength: 4096 }, name: nameString, size: { type: 'integer', minimum: 0 } },
              },
            },
          },
        },
      },
    },
    async (request): Promise<ApiOk<SynCheckResponse>> => ({ data: await sync.check(callerOf(request), request.body as SynCheckRequest) }),
  );

  app.post(
    API.syncRemove,
    {
      schema: {
        body: {
          type: 'object',
          required: ['items'],
          properties: {
            items: {
              type: 'array',
              minItems: 1,
              maxItems: SYNC_BATCH_MAX,
              items: { type: 'object', required: ['id', 'digest'], properties: { id: idString, digest: sha256Hex } },
            },
          },
        },
      },
    },
    async (request): Promise<ApiOk<SynRemoveResponse>> => ({ data: await sync.remove(callerOf(request), request.body as SynRemoveRequest) }),
  );
}
