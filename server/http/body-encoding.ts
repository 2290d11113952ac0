import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { AppError } from './app-error';

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Each route takes the body encoding spec §7 gives it, and only that one: JSON by default, form
 * where the route declares `config.bodyEncoding: 'form'`. A form body sent to a JSON route (or JSON
 * to a form route) is refused with BODY_ENCODING_UNSUPPORTED (415) before it is parsed — a form post
 * is what another site's page can send without asking, so JSON routes never take one. Raw uploads
 * (chunks, application/octet-stream) are their routes' own business.
 */
export function installBodyEncodingGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!BODY_METHODS.has(request.method)) return;
    const type = (request.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
    if (type === '') return;
    const wantsForm = request.routeOptions.config?.bodyEncoding === 'form';
    const refused = wantsForm ? type === JSON_TYPE : type === FORM || type === 'multipart/form-data';
    if (refused) throw new AppError(ERRORS.BODY_ENCODING_UNSUPPORTED);
  });
}
