import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LINKS } from '../../common/api/endpoints/links';
import { route } from '../http/endpoint-route';
import { sendPreview } from '../http/send-preview';
import { callerOf } from '../http/session-guard';
import type { LinkService } from '../services/sharing/link-service';
import type { LinkVisitService, Visitor } from '../services/sharing/link-visit-service';
import type { TicketMeter } from '../services/sharing/ticket-meter';
import { registerTicketRoute } from './ticket-route';

const visitorOf = (request: FastifyRequest): Visitor => ({ caller: request.caller, address: request.ip });

/** Link pages and their calls carry no referrer anywhere (the token is in the page's address). */
function noReferrer(reply: FastifyReply): void {
  reply.header('Referrer-Policy', 'no-referrer');
}

/** Share links (declared in common/api/endpoints/links.ts): the sharer's calls (session) and the visitor's (public: whoever holds the link). */
export function registerLinkRoutes(
  app: FastifyInstance,
  links: LinkService,
  visits: LinkVisitService,
  tickets: TicketMeter,
  burn: (bytes: Buffer, text: string) => Promise<Buffer | null>,
): void {
  route(app, LINKS.create, async (request) => ({ data: await links.create(callerOf(request), request.body) }));
  route(app, LINKS.update, async (request) => ({ data: await links.update(callerOf(request), request.body) }));
  route(app, LINKS.revoke, async (request) => ({ data: await links.revoke(callerOf(request), request.body.ids) }));
  route(app, LINKS.mine, async (request) => ({ data: await links.mine(callerOf(request), request.body) }));

  route(app, LINKS.summary, async (request, reply) => {
    noReferrer(reply);
    return { data: await visits.summary(visitorOf(request), request.body) };
  });
  route(app, LINKS.open, async (request, reply) => {
    noReferrer(reply);
    return { data: await visits.open(visitorOf(request), request.body) };
  });
  route(app, LINKS.list, async (request, reply) => {
    noReferrer(reply);
    return { data: await visits.list(visitorOf(request), request.body) };
  });
  route(app, LINKS.download, async (request, reply) => {
    noReferrer(reply);
    return { data: await visits.download(visitorOf(request), request.body) };
  });
  registerTicketRoute(app, visits, tickets, visitorOf);
  route(app, LINKS.preview, async (request, reply) => {
    noReferrer(reply);
    return sendPreview(request, reply, await visits.preview(visitorOf(request), request.query.v, request.params.id), burn);
  });
  route(app, LINKS.thumbnail, async (request, reply) => {
    noReferrer(reply);
    const { data, etag } = await visits.thumbnail(visitorOf(request), request.query.v, request.params.id);
    if (request.headers['if-none-match'] === etag) return reply.code(304).header('ETag', etag).send();
    return reply
      .header('Content-Type', 'image/webp')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      .header('ETag', etag)
      .header('Cache-Control', 'private, max-age=600')
      .send(data);
  });
  route(app, LINKS.save, async (request) => ({ data: await visits.save(visitorOf(request), request.body) }));
}
