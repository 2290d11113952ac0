import type { FastifyInstance } from 'fastify';
import { TENANT } from '../../common/api/endpoints/tenant';
import { requirePlatformHeader } from '../http/client-headers';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { SwitchKey, TenantService } from '../services/tenant-service';

const SWITCHES: Array<[typeof TENANT.switchGesture, SwitchKey]> = [
  [TENANT.switchGesture, 'gesture'],
  [TENANT.switchKeyCreate, 'keyCreate'],
  [TENANT.switchPublicDownload, 'publicDownLoad'],
  [TENANT.switchExchange, 'exchangeSwitch'],
  [TENANT.switchWebdav, 'webdav'],
];

/** Spec §7 tenant calls and admin switches (declared in common/api/endpoints/tenant.ts). */
export function registerTenantRoutes(app: FastifyInstance, tenants: TenantService): void {
  route(app, TENANT.alias, async (request) => ({ data: await tenants.alias(request.query.id || undefined) }));
  route(app, TENANT.info, async (request) => ({ data: await tenants.info(callerOf(request), request.query.tenantId) }));
  route(app, TENANT.list, async (request) => ({ data: await tenants.list(callerOf(request)) }));

  // The pictures come base64 inside the JSON: this route alone takes bodies beyond the usual 8 MiB.
  route(app, TENANT.update, async (request) => ({ data: await tenants.update(callerOf(request), request.body) }), { bodyLimit: 24 * 1024 * 1024 });

  // State changes on GET as the spec has them: only with our clients' platform header (no cross-site GET can add it).
  route(app, TENANT.resetLogo, async (request) => {
    requirePlatformHeader(request);
    return { data: await tenants.resetLogo(callerOf(request), request.query.tenantId) };
  });
  route(app, TENANT.resetBackground, async (request) => {
    requirePlatformHeader(request);
    return { data: await tenants.resetBackground(callerOf(request), request.query.tenantId) };
  });

  for (const [entry, key] of SWITCHES) {
    route(app, entry, async (request) => ({ data: await tenants.setSwitch(callerOf(request), key, request.body.value, request.body.tenantId) }));
  }
  route(app, TENANT.modifyGestureIdle, async (request) => ({
    data: await tenants.setSwitch(callerOf(request), 'gestureIdle', String(request.body.idleTime), request.body.tenantId),
  }));
  route(app, TENANT.modifySyncTime, async (request) => ({
    data: await tenants.setSwitch(callerOf(request), 'syncTime', request.body.syncTime, request.body.tenantId),
  }));
}
