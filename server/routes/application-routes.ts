import type { FastifyInstance } from 'fastify';
import { APPLICATIONS } from '../../common/api/endpoints/applications';
import { route } from '../http/endpoint-route';
import { sendPreview } from '../http/send-preview';
import { callerOf } from '../http/session-guard';
import type { ApplicationReviewService } from '../services/sharing/application-review';
import type { ApplicationService } from '../services/sharing/application-service';

/** Sharing applications (/main/safe; declared in common/api/endpoints/applications.ts): check, submit, my applications, the approver's queue and decisions. */
export function registerApplicationRoutes(
  app: FastifyInstance,
  apps: ApplicationService,
  review: ApplicationReviewService,
  burn: (bytes: Buffer, text: string) => Promise<Buffer | null>,
): void {
  route(app, APPLICATIONS.check, async (request) => ({ data: await apps.check(callerOf(request), request.body) }));
  route(app, APPLICATIONS.submit, async (request) => ({ data: await apps.submit(callerOf(request), request.body) }));
  route(app, APPLICATIONS.mine, async (request) => ({ data: await apps.mine(callerOf(request), request.body) }));
  route(app, APPLICATIONS.todo, async (request) => ({ data: await apps.todo(callerOf(request), request.body) }));
  route(app, APPLICATIONS.get, async (request) => ({ data: await apps.get(callerOf(request), request.body.id) }));
  route(app, APPLICATIONS.approve, async (request) => ({ data: await apps.approve(callerOf(request), request.body) }));
  route(app, APPLICATIONS.reject, async (request) => ({ data: await apps.reject(callerOf(request), request.body.ids, request.body.comment) }));
  route(app, APPLICATIONS.todoCount, async (request) => ({ data: await review.todoCount(callerOf(request)) }));
  // A rendition through the grant `approval` (byte-access.ts), never the original as an attachment.
  route(app, APPLICATIONS.preview, async (request, reply) => sendPreview(request, reply, await review.preview(callerOf(request), request.query.app, request.params.id), burn));
  route(app, APPLICATIONS.withdraw, async (request) => ({ data: await apps.withdraw(callerOf(request), request.body.id) }));
}
