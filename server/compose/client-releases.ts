import type { FastifyInstance } from 'fastify';
import { ClientReleaseRepository } from '../repositories/client-release-repository';
import { TenantRepository } from '../repositories/tenant-repository';
import { registerClientReleaseRoutes } from '../routes/client-release-routes';
import { ClientReleaseService } from '../services/client-release-service';
import type { Base, Routed } from './base';
import type { Files } from './files';

/** 客户端版本 (issue 38): each tenant's desktop release per client type, the version check and the installer. */
export function buildClientReleases({ db, config, files }: Omit<Base, 'log'> & { files: Files }): Routed {
  const releases = new ClientReleaseService({
    releases: new ClientReleaseRepository(db),
    tenants: new TenantRepository(db),
    files: files.repos.files,
    access: files.access,
    gate: files.gate,
    downloads: files.downloads,
    fallback: config.desktopRelease,
  });
  return {
    routes(app: FastifyInstance) {
      registerClientReleaseRoutes(app, releases);
    },
  };
}
