import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { LINKS } from '../../common/api/endpoints/links';
import { AppError } from '../http/app-error';
import { route, type EndpointHandler } from '../http/endpoint-route';
import { attachmentDisposition, ticketAsk } from '../http/range';
import { contentHeaders, openForReply } from '../http/send-content';
import { zipStream } from '../http/zip-writer';
import type { ZipPlan } from '../services/archive-service';
import type { Downloadable } from '../services/download-service';
import type { LinkVisitService, Visitor } from '../services/sharing/link-visit-service';
import type { TicketLease, TicketMeter } from '../services/sharing/ticket-meter';

/**
 * `GET|HEAD /api/v2/shareLink/file/<ticket>` (LINKS.ticketFile, LINKS.ticketFileHead): the bytes of a
 * counted link download, one copy per ticket (rules in common/api/sharing.ts; the metering in
 * services/sharing/ticket-meter.ts). The HEAD is an entry of its own with its own handler, and the GET
 * is registered without Fastify's automatic HEAD route, which would run the GET and use the ticket.
 * An entry rather than a `head` option of the GET's route: so the route registry, ROUTE_ACTIONS, the
 * access matrix and the coverage table read the HEAD from a declaration like every other route.
 */
export function registerTicketRoute(app: FastifyInstance, visits: LinkVisitService, meter: TicketMeter, visitorOf: (request: FastifyRequest) => Visitor): void {
  /** The GET's handler, or (`head`) the HEAD's: the same headers, which take nothing of the ticket. */
  const serve =
    (head: boolean): EndpointHandler<typeof LINKS.ticketFile> =>
    async (request, reply) => {
      reply.header('Referrer-Policy', 'no-referrer');
      const content = await visits.ticketContent(visitorOf(request), request.params.ticket);
      if ('file' in content) return sendFile(request, reply, meter, content.hash, content.file, head);
      return sendZip(request, reply, meter, content.hash, content.zip, head);
    };
  route(app, LINKS.ticketFileHead, serve(true));
  route(app, LINKS.ticketFile, serve(false), { exposeHeadRoute: false });
}

/** The refusal of a request the ticket cannot serve: 416 to a ranged one, 404 (used) otherwise. */
function spent(ranged: boolean, size?: number): AppError {
  if (!ranged) return new AppError(ERRORS.LINK_TICKET_INVALID);
  return new AppError(ERRORS.LINK_TICKET_SPENT, undefined, size === undefined ? {} : { 'Content-Range': `bytes */${size}` });
}

const header = (request: FastifyRequest, name: 'range' | 'if-range'): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

async function sendFile(request: FastifyRequest, reply: FastifyReply, meter: TicketMeter, hash: string, file: Downloadable, head: boolean): Promise<FastifyReply> {
  const ask = ticketAsk(header(request, 'range'), header(request, 'if-range'), `"${file.fingerprint}"`, file.size);
  if (ask.kind === 'unsatisfiable') throw new AppError(ERRORS.RANGE_NOT_SATISFIABLE, undefined, { 'Content-Range': `bytes */${file.size}` });
  const part = ask.kind === 'part';
  const start = part ? ask.start : 0;
  const length = part ? ask.end - ask.start + 1 : file.size;
  const ranged = part || ask.ranged;
  const headers = () => {
    contentHeaders(reply, file, { inline: false });
    reply.header('Cache-Control', 'private, no-store').header('Content-Length', String(length));
    if (part) reply.code(206).header('Content-Range', `bytes ${start}-${start + length - 1}/${file.size}`);
  };
  if (head) {
    if (!(await meter.wouldServe(hash, start, length, file.size))) throw spent(ranged, file.size);
    headers();
    return reply.send();
  }
  // The lease ends when the response closes, however: sent in full, broken off, or answered with an error.
  let lease: TicketLease | null = null;
  let closed = false;
  reply.raw.once('close', () => {
    closed = true;
    lease?.end(reply.raw.writableFinished).catch((err: unknown) => request.log.error({ err }, 'ticket: giving back unsent bytes failed'));
  });
  lease = await meter.take(hash, { start, length, size: file.size, stop: () => reply.raw.destroy(), now: Date.now() });
  if (!lease) throw spent(ranged, file.size);
  if (closed) {
    await lease.end(false);
    return reply;
  }
  headers();
  if (length === 0) return reply.send('');
  // counted() hands the pieces on as they are, so the response's writes still give them back.
  return reply.send(Readable.from(counted(openForReply(reply, file, { start, end: start + length - 1 }), lease), { objectMode: false, highWaterMark: 0 }));
}

/** Counts each piece as it is handed on (pulled one at a time, so the count runs at most a piece ahead of the response). */
async function* counted(source: AsyncIterable<Buffer>, lease: TicketLease): AsyncGenerator<Buffer> {
  for await (const piece of source) {
    lease.sent(piece.length);
    yield piece;
  }
}

async function sendZip(request: FastifyRequest, reply: FastifyReply, meter: TicketMeter, hash: string, zip: ZipPlan, head: boolean): Promise<FastifyReply> {
  const ranged = request.headers.range !== undefined;
  const headers = () =>
    reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', attachmentDisposition(zip.fileName))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Accept-Ranges', 'none')
      .header('Cache-Control', 'private, no-store');
  if (head) {
    const row = await meter.state(hash);
    if (!row || row.used_at !== null) throw spent(ranged);
    headers();
    return reply.send();
  }
  if (!(await meter.takeWhole(hash, Date.now()))) throw spent(ranged);
  const abort = new AbortController();
  reply.raw.on('close', () => abort.abort());
  headers();
  return reply.send(Readable.from(zipStream(zip.members, { signal: abort.signal })));
}
