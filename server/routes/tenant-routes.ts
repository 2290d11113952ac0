import type { FastifyInstance } from 'fastify';
import type { ApiOk } from '../../common/api/envelope';
import { API } from '../../common/api/paths';
import type { SwitchForm, SyncTimeForm, TenantAlias, TenantInfo, TenantListResponse, TenantSwitches, TenantUpdateRequest } from '../../common/api/tenant';
import { requirePlatformHeader } from '../http/client-headers';
import { callerOf } from '../http/session-guard';
import type { SwitchKey, TenantService } from '../services/tenant-service';

const tenantIdProp = { type: 'string', minLength: 1, maxLength: 64 } as const;
const tenantQuery = { querystring: { type: 'object', additionalProperties: false, properties: { tenantId: tenantIdProp } } } as const;
/** Base64 of a picture: at most the background's 8 MiB once decoded (and a data: prefix). */
const picture = { type: 'string', maxLength: 12 * 1024 * 1024 } as const;

const SWITCH_ROUTES: Array<[string, SwitchKey]> = [
  [API.switchGesture, 'gesture'],
  [API.switchKeyCreate, 'keyCreate'],
  [API.switchPublicDownload, 'publicDownLoad'],
  [API.switchExchange, 'exchangeSwitch'],
];

/** Spec §7 tenant calls and admin switches. */
export function registerTenantRoutes(app: FastifyInstance, tenants: TenantService): void {
  app.get(
    API.tenantAlias,
    { config: { public: true }, schema: { querystring: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } } } },
    async (request): Promise<ApiOk<TenantAlias>> => ({ data: await tenants.alias((request.query as { id?: string }).id || undefined) }),
  );

  app.get(API.tenantInfo, { schema: tenantQuery }, async (request): Promise<ApiOk<TenantInfo>> => ({
    data: await tenants.info(callerOf(request), (request.query as { tenantId?: string }).tenantId),
  }));

  const adminOnly = { adminOnly: true } as const;
  app.get(API.tenantList, { config: adminOnly }, async (request): Promise<ApiOk<TenantListResponse>> => ({ data: await tenants.list(callerOf(request)) }));

  app.post(
    API.tenantUpdate,
    {
      config: adminOnly,
      // The pictures come base64 inside the JSON: this route alone takes bodies beyond the usual 8 MiB.
      bodyLimit: 24 * 1024 * 1024,
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            tenantId: tenantIdProp,
            name: { type: 'string', maxLength: 256 },
            brandName: { type: 'string', maxLength: 256 },
            alias: { type: 'string', maxLength: 64 },
            logo: picture,
            loginBackground: picture,
          },
        },
      },
    },
    async (request): Promise<ApiOk<TenantInfo>> => ({ data: await tenants.update(callerOf(request), request.body as TenantUpdateRequest) }),
  );

  // State changes on GET as the spec has them: only with our clients' platform header (no cross-site GET can add it).
  app.get(API.tenantResetLogo, { config: adminOnly, schema: tenantQuery }, async (request): Promise<ApiOk<TenantInfo>> => {
    requirePlatformHeader(request);
    return { data: await tenants.resetLogo(callerOf(request), (request.query as { tenantId?: string }).tenantId) };
  });
  app.get(API.tenantResetBackground, { config: adminOnly, schema: tenantQuery }, async (request): Promise<ApiOk<TenantInfo>> => {
    requirePlatformHeader(request);
    return { data: await tenants.resetBackground(callerOf(request), (request.query as { tenantId?: string }).tenantId) };
  });

  const formConfig = { adminOnly: true, bodyEncoding: 'form' } as const;
  for (const [path, key] of SWITCH_ROUTES) {
    app.post(
      path,
      {
        config: formConfig,
        schema: { body: { type: 'object', required: ['value'], properties: { value: { type: 'string', maxLength: 8 }, tenantId: tenantIdProp } } },
      },
      async (request): Promise<ApiOk<TenantSwitches>> => {
        const form = request.body as SwitchForm;
        return { data: await tenants.setSwitch(callerOf(request), key, form.value, form.tenantId) };
      },
    );
  }
  app.post(
    API.modifySyncTime,
    {
      config: formConfig,
      schema: { body: { type: 'object', required: ['syncTime'], properties: { syncTime: { type: 'string', maxLength: 8 }, tenantId: tenantIdProp } } },
    },
    async (request): Promise<ApiOk<TenantSwitches>> => {
      const form = request.body as SyncTimeForm;
      return { data: await tenants.setSwitch(callerOf(request), 'syncTime', form.syncTime, form.tenantId) };
    },
  );
}
