import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { DOWNLOADS } from '../../common/api/endpoints/downloads';
import { BATCH_MAX_IDS } from '../../common/api/types';
import { AppError } from '../http/app-error';
import { route } from '../http/endpoint-route';
import { attachmentDisposition } from '../http/range';
import { sendPreview } from '../http/send-preview';
import { callerOf } from '../http/session-guard';
import { zipStream } from '../http/zip-writer';
import type { ArchiveService } from '../services/archive-service';
import type { DownloadService } from '../services/download-service';

/** Streamed ZIP downloads, inline previews and thumbnails (ours; declared in common/api/endpoints/downloads.ts). */
export function registerArchiveRoutes(
  app: FastifyInstance,
  archives: ArchiveService,
  downloads: DownloadService,
  burnWatermark: (bytes: Buffer, text: string) => Promise<Buffer | null>,
): void {
  route(app, DOWNLOADS.zip, async (request, reply) => {
    const q = request.query;
    const ids = q.ids.split(',').filter(Boolean);
    if (ids.length === 0 || ids.length > BATCH_MAX_IDS || ids.some((id) => id.length > 64)) throw new AppError(ERRORS.VALIDATION);
    const plan = await archives.planZip(callerOf(request), ids, q.name);
    // The client going away (the response closes before its end) aborts the stream: no blob is read further.
    const abort = new AbortController();
    reply.raw.on('close', () => abort.abort());
    reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', attachmentDisposition(plan.fileName))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'private, no-store');
    return reply.send(Readable.from(zipStream(plan.members, { signal: abort.signal })));
  });

  // A rendition or PREVIEW_UNSUPPORTED, never the original as an attachment (ByteGate.view).
  const preview = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) =>
    sendPreview(request, reply, await downloads.preview(callerOf(request), request.params.id), burnWatermark);
  route(app, DOWNLOADS.preview, preview);
  // The same answer with the name as the last segment: the PDF viewer titles the document with it.
  route(app, DOWNLOADS.namedPreview, preview);

  route(app, DOWNLOADS.thumbnail, async (request, reply) => {
    const { data, etag } = await archives.thumbnail(callerOf(request), request.params.id);
    if (request.headers['if-none-match'] === etag) return reply.code(304).header('ETag', etag).send();
    return reply
      .header('Content-Type', 'image/webp')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', 'sandbox')
      .header('ETag', etag)
      .header('Cache-Control', 'private, max-age=86400')
      .send(data);
  });
}
