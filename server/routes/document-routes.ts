import type { FastifyInstance } from 'fastify';
import { DOCUMENTS } from '../../common/api/endpoints/documents';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { DocumentService } from '../services/documents/document-service';

/** The documents pipeline for admins (ours; declared in common/api/endpoints/documents.ts). */
export function registerDocumentRoutes(app: FastifyInstance, documents: DocumentService): void {
  route(app, DOCUMENTS.status, async (request) => ({ data: await documents.status(callerOf(request)) }));
  route(app, DOCUMENTS.retry, async (request) => ({ data: await documents.retry(callerOf(request), request.body) }));
}
