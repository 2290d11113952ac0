import type { FastifyInstance } from 'fastify';
import { SyncRepository } from '../repositories/sync-repository';
import { registerSyncRoutes } from '../routes/sync-routes';
import type { CheckService } from '../services/check-service';
import { SyncService } from '../services/sync-service';
import type { TenantService } from '../services/tenant-service';
import type { Base, Routed } from './base';
import type { Files } from './files';

export interface SyncDeps extends Pick<Base, 'db'> {
  files: Files;
  checks: CheckService;
  tenants: TenantService;
}

/** The desktop sync calls (/api/syn/*). */
export function buildSync({ db, files, checks, tenants }: SyncDeps): Routed {
  const syncTime = async (tenantId: string) => (await tenants.switches(tenantId)).syncTime;
  const sync = new SyncService(new SyncRepository(db), files.access, files.trash, files.blockedTypes, checks, syncTime, files.gate);
  return { routes: (app: FastifyInstance) => registerSyncRoutes(app, sync) };
}
