import type { FastifyInstance } from 'fastify';
import { GestureRepository } from '../repositories/gesture-repository';
import { registerGestureRoutes } from '../routes/gesture-routes';
import { GestureService } from '../services/gesture-service';
import type { TenantService } from '../services/tenant-service';
import type { Caller } from '../services/caller';
import type { Base, Routed } from './base';

/** What the session guard asks of a locked session (server/http/session-guard.ts). */
export interface GestureLockCheck {
  holds(caller: Caller): Promise<boolean>;
}

/** 手势密码 (issue 38): users' patterns, checked against the tenant's switch and idle time. */
export function buildGesture({ db, tenants }: Pick<Base, 'db'> & { tenants: TenantService }): Routed & { lock: GestureLockCheck } {
  const service = new GestureService({ repo: new GestureRepository(db), switchesOf: (tenantId) => tenants.switches(tenantId) });
  return {
    lock: { holds: (caller) => service.lockHolds(caller) },
    routes(app: FastifyInstance) {
      registerGestureRoutes(app, service);
    },
  };
}
