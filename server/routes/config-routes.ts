import type { FastifyInstance } from 'fastify';
import { API } from '../../common/api/paths';
import type { ApiOk } from '../../common/api/envelope';
import type { ClientVersion, HomeUrl, MenuItem, PagePermission, SystemConfig, TenantConfig } from '../../common/api/types';
import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import { callerOf } from '../http/session-guard';
import { LOGO_PATH, type ConfigService } from '../services/config-service';

export function registerConfigRoutes(app: FastifyInstance, config: ConfigService): void {
  app.get(API.systemConfig, { config: { public: true } }, async (request): Promise<ApiOk<SystemConfig>> => ({
    data: await config.systemConfig(request.caller),
  }));

  app.get(
    LOGO_PATH,
    { config: { public: true }, schema: { querystring: { type: 'object', properties: { t: { type: 'string', maxLength: 64 }, v: { type: 'integer' } } } } },
    async (request, reply) => {
      const logo = await config.logo((request.query as { t?: string }).t);
      if (!logo) throw new AppError(ERRORS.NOT_FOUND);
      // Our own SVG, or a WebP the server encoded itself: locked down all the same, no scripts even if opened directly.
      return reply
        .type(logo.type === 'webp' ? 'image/webp' : 'image/svg+xml')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .header('Cache-Control', 'public, max-age=300')
        .send(logo.stream);
    },
  );

  // The login page's background (ours): public like the logo; the URL carries a version, so it may be kept long.
  app.get(
    API.loginBackground,
    { config: { public: true }, schema: { querystring: { type: 'object', properties: { t: { type: 'string', maxLength: 64 }, v: { type: 'integer' } } } } },
    async (request, reply) => {
      const stream = await config.loginBackground((request.query as { t?: string }).t);
      if (!stream) throw new AppError(ERRORS.NOT_FOUND);
      return reply
        .type('image/webp')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'")
        .header('Cache-Control', 'public, max-age=86400')
        .send(stream);
    },
  );

  // Public: the desktop shell checks before anyone logs in (spec §1).
  app.get(
    API.clientVersion,
    {
      config: { public: true },
      schema: { querystring: { type: 'object', required: ['clientType'], properties: { clientType: { type: 'integer', enum: [3, 4] } } } },
    },
    async (): Promise<ApiOk<ClientVersion>> => ({ data: config.clientVersion() }),
  );

  const duringPasswordChange = { config: { allowDuringPasswordChange: true } };
  app.get(API.tenantConfig, duringPasswordChange, async (request): Promise<ApiOk<TenantConfig>> => ({
    data: await config.tenantConfig(callerOf(request)),
  }));
  app.get(API.menu, duringPasswordChange, async (request): Promise<ApiOk<MenuItem[]>> => ({ data: await config.menu(callerOf(request)) }));
  app.get(API.pagePermissions, async (request): Promise<ApiOk<PagePermission[]>> => ({
    data: config.pagePermissions(callerOf(request)),
  }));
  app.get(API.homeUrl, duringPasswordChange, async (): Promise<ApiOk<HomeUrl>> => ({ data: config.homeUrl() }));
}
