import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import { sendContent } from '../http/send-content';
import { callerOf } from '../http/session-guard';
import type { DownloadService } from '../services/download-service';
import { idString } from './schemas';

/** `GET|HEAD /api/file/download/:id` (HEAD comes from Fastify's exposeHeadRoutes). */
export function registerDownloadRoutes(app: FastifyInstance, downloads: DownloadService): void {
  app.get(
    `${API.downloadPrefix}:id`,
    {
      schema: {
        params: { type: 'object', required: ['id'], properties: { id: idString } },
        // `confirm`: keepOnDownload's confirmation of a flagged exchange-area file (common/api/sharing.ts).
        querystring: { type: 'object', properties: { confirm: { type: 'string', maxLength: 512 } } },
      },
    },
    async (request, reply) => {
      const file = await downloads.resolve(callerOf(request), (request.params as { id: string }).id, (request.query as { confirm?: string }).confirm);
      // Always an attachment of an opaque type: an uploaded HTML or SVG can never run as our page.
      return sendContent(request, reply, file);
    },
  );
}
