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
  const sync = new SyncService({
    repo: new SyncRepository(db),
    access: files.access,
    trash: files.trash,
    types: files.blockedTypes,
    checks,
    syncTimeOf: async (tenantId) => (await tenants.switches(tenantId)).syncTime,
    gate: files.gate,
  });
  return { routes: (app: FastifyInstance) => registerSyncRoutes(app, sync) };
}
