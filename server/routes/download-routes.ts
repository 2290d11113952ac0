import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { API } from '../../common/api/paths';
import { AppError } from '../http/app-error';
import { attachmentDisposition, parseRange } from '../http/range';
import { callerOf } from '../http/session-guard';
import type { DownloadService } from '../services/download-service';
import { idString } from './schemas';

/** `GET|HEAD /api/file/download/:id` (HEAD comes from Fastify's exposeHeadRoutes). */
export function registerDownloadRoutes(app: FastifyInstance, downloads: DownloadService): void {
  app.get(
    `${API.downloadPrefix}:id`,
    { schema: { params: { type: 'object', required: ['id'], properties: { id: idString } } } },
    async (request, reply) => {
      const file = await downloads.resolve(callerOf(request), (request.params as { id: string }).id);
      const etag = `"${file.fingerprint}"`;
      // If-Range with another validator means the client's partial copy is stale: send it all.
      const ifRange = request.headers['if-range'];
      const range = ifRange && ifRange !== etag ? ({ kind: 'full' } as const) : parseRange(request.headers.range, file.size);
      if (range.kind === 'unsatisfiable') {
        throw new AppError(ERRORS.RANGE_NOT_SATISFIABLE, undefined, { 'Content-Range': `bytes */${file.size}` });
      }
      // Always an attachment of an opaque type: an uploaded HTML or SVG can never run as our page.
      reply
        .header('Content-Type', 'application/octet-stream')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Disposition', attachmentDisposition(file.name))
        .header('Accept-Ranges', 'bytes')
        .header('ETag', etag)
        .header('Cache-Control', 'private, no-cache');
      if (range.kind === 'partial') {
        return reply
          .code(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`)
          .header('Content-Length', String(range.end - range.start + 1))
          .send(file.open({ start: range.start, end: range.end }));
      }
      reply.header('Content-Length', String(file.size));
      // An empty file: no stream to open, the empty body is the content.
      return reply.send(file.size === 0 ? '' : file.open());
    },
  );
}
