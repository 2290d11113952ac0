import type { FastifyInstance } from 'fastify';
import { CONFIG } from '../../common/api/endpoints/config';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { ConfigService } from '../services/config-service';

/** Config, menu and the tenant's pictures (the desktop's update check: client-release-routes.ts) (declared in common/api/endpoints/config.ts). */
export function registerConfigRoutes(app: FastifyInstance, config: ConfigService): void {
  route(app, CONFIG.systemConfig, async (request) => ({ data: await config.systemConfig(request.caller) }));

  route(app, CONFIG.logo, async (request, reply) => {
    const logo = await config.logo(request.query.t);
    if (!logo) throw new AppError(ERRORS.NOT_FOUND);
    // Our own SVG, or a WebP the server encoded itself: locked down all the same, no scripts even if opened directly.
    return reply
      .type(logo.type === 'webp' ? 'image/webp' : 'image/svg+xml')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('Cache-Control', 'public, max-age=300')
      .send(logo.stream);
  });

  // The URL carries a version, so it may be kept long.
  route(app, CONFIG.loginBackground, async (request, reply) => {
    const stream = await config.loginBackground(request.query.t);
    if (!stream) throw new AppError(ERRORS.NOT_FOUND);
    return reply
      .type('image/webp')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'")
      .header('Cache-Control', 'public, max-age=86400')
      .send(stream);
  });

  route(app, CONFIG.tenantConfig, async (request) => ({ data: await config.tenantConfig(callerOf(request)) }));
  route(app, CONFIG.menu, async (request) => ({ data: await config.menu(callerOf(request)) }));
  route(app, CONFIG.pagePermissions, async (request) => ({ data: config.pagePermissions(callerOf(request)) }));
  route(app, CONFIG.homeUrl, async (request) => ({ data: await config.homeUrl(callerOf(request)) }));
  // Asked every second by each balancer in front: not worth a log line each.
  route(app, CONFIG.health, async () => ({ data: { status: 'ok' as const } }), { logLevel: 'silent' });
}
