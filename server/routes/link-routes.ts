import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import {
  LINK_MAX_DOWNLOAD_LIMIT,
  type LinkCreateRequest,
  type LinkDownloadRequest,
  type LinkDownloadResponse,
  type LinkInfo,
  type LinkListRequest,
  type LinkListResponse,
  type LinkOpenRequest,
  type LinkOpenResponse,
  type LinkSaveRequest,
  type LinkSaveResponse,
  type LinkUpdateRequest,
  type MyLinksRequest,
  type MyLinksResponse,
  type ShareIdsRequest,
} from '../../common/api/sharing';
import { BATCH_MAX_IDS, FILE_LIST_MAX_PAGE_SIZE } from '../../common/api/types';
import { sendPreview } from '../http/send-preview';
import { callerOf } from '../http/session-guard';
import type { LinkService } from '../services/sharing/link-service';
import type { LinkVisitService, Visitor } from '../services/sharing/link-visit-service';
import type { TicketMeter } from '../services/sharing/ticket-meter';
import { idString, nullableId } from './schemas';
import { listFilter } from './share-routes';
import { registerTicketRoute } from './ticket-route';

const body = (required: string[], properties: Record<string, unknown>) => ({ body: { type: 'object', required, properties } });
// Union types, not anyOf: with Fastify's type coercion anyOf would turn null into '' (or '' into null).
const code = { type: ['string', 'null'], maxLength: 8 };
const limit = { type: ['integer', 'null'], minimum: 1, maximum: LINK_MAX_DOWNLOAD_LIMIT };
const validityDays = { type: 'integer', minimum: 0, maximum: 100000 };
const visit = { type: 'string', minLength: 1, maxLength: 512 };
const token = { type: 'string', minLength: 1, maxLength: 128 };
const publicRoute = { public: true } as const;

const visitorOf = (request: FastifyRequest): Visitor => ({ caller: request.caller, address: request.ip });

/** Link pages and their calls carry no referrer anywhere (the token is in the page's address). */
function noReferrer(reply: FastifyReply): void {
  reply.header('Referrer-Policy', 'no-referrer');
}

/** Share links: the sharer's calls (session) and the visitor's (public unless publicDownLoad is off). */
export function registerLinkRoutes(
  app: FastifyInstance,
  links: LinkService,
  visits: LinkVisitService,
  tickets: TicketMeter,
  burn: (bytes: Buffer, text: string) => Promise<Buffer | null>,
): void {
  app.post(
    API.linkCreate,
    { schema: body(['fileId', 'code', 'validityDays', 'downloadLimit', 'previewOnly'], { fileId: idString, code, validityDays, downloadLimit: limit, previewOnly: { type: 'boolean' } }) },
    async (request): Promise<ApiOk<LinkInfo>> => ({ data: await links.create(callerOf(request), request.body as LinkCreateRequest) }),
  );
  app.post(
    API.linkUpdate,
    { schema: body(['id'], { id: idString, code, validityDays, downloadLimit: limit, previewOnly: { type: 'boolean' } }) },
    async (request): Promise<ApiOk<LinkInfo>> => ({ data: await links.update(callerOf(request), request.body as LinkUpdateRequest) }),
  );
  app.post(
    API.linkRevoke,
    { schema: body(['ids'], { ids: { type: 'array', items: idString, minItems: 1, maxItems: 1000 } }) },
    async (request): Promise<ApiOk<{ revoked: number }>> => ({ data: await links.revoke(callerOf(request), (request.body as ShareIdsRequest).ids) }),
  );
  app.post(API.linkMine, { schema: { body: { type: 'object', properties: listFilter } } }, async (request): Promise<ApiOk<MyLinksResponse>> => ({
    data: await links.mine(callerOf(request), request.body as MyLinksRequest),
  }));

  app.post(
    API.linkOpen,
    { config: publicRoute, schema: body(['token'], { token, code: { type: 'string', maxLength: 16 } }) },
    async (request, reply): Promise<ApiOk<LinkOpenResponse>> => {
      noReferrer(reply);
      return { data: await visits.open(visitorOf(request), request.body as LinkOpenRequest) };
    },
  );
  app.post(
    API.linkList,
    {
      config: publicRoute,
      schema: body(['visit', 'parentId'], { visit, parentId: nullableId, cursor: { anyOf: [{ type: 'string', maxLength: 2048 }, { type: 'null' }] }, pageSize: { type: 'integer', minimum: 1, maximum: FILE_LIST_MAX_PAGE_SIZE } }),
    },
    async (request, reply): Promise<ApiOk<LinkListResponse>> => {
      noReferrer(reply);
      return { data: await visits.list(visitorOf(request), request.body as LinkListRequest) };
    },
  );
  app.post(
    API.linkDownload,
    { config: publicRoute, schema: body(['visit', 'ids'], { visit, ids: { type: 'array', items: idString, minItems: 1, maxItems: BATCH_MAX_IDS } }) },
    async (request, reply): Promise<ApiOk<LinkDownloadResponse>> => {
      noReferrer(reply);
      return { data: await visits.download(visitorOf(request), request.body as LinkDownloadRequest) };
    },
  );
  registerTicketRoute(app, visits, tickets, visitorOf);
  const idWithVisit = {
    params: { type: 'object', required: ['id'], properties: { id: idString } },
    querystring: { type: 'object', required: ['v'], properties: { v: visit } },
  };
  app.get(`${API.linkPreviewPrefix}:id`, { config: publicRoute, schema: idWithVisit }, async (request, reply) => {
    noReferrer(reply);
    return sendPreview(request, reply, await visits.preview(visitorOf(request), (request.query as { v: string }).v, (request.params as { id: string }).id), burn);
  });
  app.get(`${API.linkThumbnailPrefix}:id`, { config: publicRoute, schema: idWithVisit }, async (request, reply) => {
    noReferrer(reply);
    const { data, etag } = await visits.thumbnail(visitorOf(request), (request.query as { v: string }).v, (request.params as { id: string }).id);
    if (request.headers['if-none-match'] === etag) return reply.code(304).header('ETag', etag).send();
    return reply
      .header('Content-Type', 'image/webp')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      .header('ETag', etag)
      .header('Cache-Control', 'private, max-age=600')
      .send(data);
  });
  app.post(
    API.linkSave,
    { schema: body(['visit', 'ids', 'targetParentId'], { visit, ids: { type: 'array', items: idString, minItems: 1, maxItems: BATCH_MAX_IDS }, targetParentId: nullableId }) },
    async (request): Promise<ApiOk<LinkSaveResponse>> => ({ data: await visits.save(visitorOf(request), request.body as LinkSaveRequest) }),
  );
}
