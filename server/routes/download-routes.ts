import type { FastifyInstance } from 'fastify';
import { DOWNLOADS } from '../../common/api/endpoints/downloads';
import { route } from '../http/endpoint-route';
import { sendContent } from '../http/send-content';
import { callerOf } from '../http/session-guard';
import type { DownloadService } from '../services/download-service';

/** `GET|HEAD /api/file/download/:id` (declared in common/api/endpoints/downloads.ts; HEAD comes from Fastify's exposeHeadRoutes). */
export function registerDownloadRoutes(app: FastifyInstance, downloads: DownloadService): void {
  route(app, DOWNLOADS.download, async (request, reply) => {
    const file = await downloads.resolve(callerOf(request), request.params.id, request.query.confirm);
    // Always an attachment of an opaque type: an uploaded HTML or SVG can never run as our page.
    return sendContent(request, reply, file);
  });
}
