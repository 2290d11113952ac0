import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../common/api/errors';
import { sendError } from '../http/error-handler';

const isApiPath = (url: string): boolean => url.startsWith('/api/') || url.startsWith('/spacex/') || url === '/api' || url === '/spacex';

/**
 * Serves the built web app with a single-page-app fallback: any other GET that is not an API path
 * gets index.html, so client-side routes survive a reload. Unknown API paths answer 404 JSON.
 */
export async function registerStaticRoutes(app: FastifyInstance, staticDir: string): Promise<void> {
  const hasApp = existsSync(path.join(staticDir, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, { root: staticDir, wildcard: true, index: ['index.html'] });
  } else {
    app.log.warn({ staticDir }, 'web app not built (no index.html): serving the API only');
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (hasApp && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(url)) {
      // index.html must not be cached, or users keep an old app after a deploy.
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return sendError(reply, 404, ERRORS.ROUTE_NOT_FOUND.code, ERRORS.ROUTE_NOT_FOUND.message);
  });
}
