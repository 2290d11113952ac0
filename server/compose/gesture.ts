import type { FastifyInstance } from 'fastify';
import { GestureRepository } from '../repositories/gesture-repository';
import { registerGestureRoutes } from '../routes/gesture-routes';
import { GestureService } from '../services/gesture-service';
import type { TenantService } from '../services/tenant-service';
import type { Base, Routed } from './base';

/** 手势密码 (issue 38): users' patterns, checked against the tenant's switch and idle time. */
export function buildGesture({ db, tenants }: Pick<Base, 'db'> & { tenants: TenantService }): Routed {
  const service = new GestureService({ repo: new GestureRepository(db), switchesOf: (tenantId) => tenants.switches(tenantId) });
  return {
    routes(app: FastifyInstance) {
      registerGestureRoutes(app, service);
    },
  };
}
