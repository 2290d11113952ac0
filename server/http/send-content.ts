import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import type { Downloadable } from '../services/download-service';
import { AppError } from './app-error';
import { attachmentDisposition, parseRange } from './range';
import { reclaimAfterWrite } from './reclaim-after-write';

/** How the bytes are presented: an opaque attachment, or inline with a type from the safe list. */
export type Presentation = { inline: false } | { inline: true; contentType: string; sandbox: boolean; noStore: boolean };

/** RFC 6266 inline disposition with the exact UTF-8 name. */
function inlineDisposition(name: string): string {
  return attachmentDisposition(name).replace(/^attachment/, 'inline');
}

/** The strong ETag of stored content: its whole fingerprint (WebDAV sends a shorter one, dav/properties.ts). */
const etagOfContent = (file: Downloadable): string => `"${file.fingerprint}"`;

/** The headers of stored content sent as `how` (type, disposition, ranges, strong ETag, no sniffing). */
export function contentHeaders(reply: FastifyReply, file: Downloadable, how: Presentation, etag = etagOfContent(file)): void {
  reply
    .header('Content-Type', how.inline ? how.contentType : 'application/octet-stream')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', how.inline ? inlineDisposition(file.name) : attachmentDisposition(file.name))
    .header('Accept-Ranges', 'bytes')
    .header('ETag', etag)
    // A preview through a grant that allows viewing only is never kept by the browser (byte-access.ts).
    .header('Cache-Control', how.inline && how.noStore ? 'private, no-store' : 'private, no-cache');
  if (!how.inline || how.sandbox) reply.header('Content-Security-Policy', 'sandbox');
}

/**
 * Sends stored content with single-range support (206, If-Range against the strong ETag), as a
 * download or an inline preview. Always `nosniff`: the browser never guesses a type (an uploaded
 * HTML or SVG never runs as our page).
 */
export function sendContent(request: FastifyRequest, reply: FastifyReply, file: Downloadable, how: Presentation = { inline: false }, etag = etagOfContent(file)): FastifyReply {
  // If-Range with another validator means the client's partial copy is stale: send it all.
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? ({ kind: 'full' } as const) : parseRange(request.headers.range, file.size);
  if (range.kind === 'unsatisfiable') {
    throw new AppError(ERRORS.RANGE_NOT_SATISFIABLE, undefined, { 'Content-Range': `bytes */${file.size}` });
  }
  contentHeaders(reply, file, how, etag);
  if (range.kind === 'partial') {
    return reply
      .code(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('Content-Length', String(range.end - range.start + 1))
      .send(openForReply(reply, file, { start: range.start, end: range.end }));
  }
  reply.header('Content-Length', String(file.size));
  // An empty file: no stream to open, the empty body is the content.
  return reply.send(file.size === 0 ? '' : openForReply(reply, file));
}

/** The content's stream for `reply`, its read buffers read into again once the response has written them. */
export function openForReply(reply: FastifyReply, file: Downloadable, range?: { start: number; end: number }): ReturnType<Downloadable['open']> {
  const stream = file.open(range);
  reclaimAfterWrite(reply.raw, stream);
  return stream;
}
