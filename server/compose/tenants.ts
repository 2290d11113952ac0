import type { FastifyInstance } from 'fastify';
import { TenantConfigRepository } from '../repositories/tenant-config-repository';
import { TenantRepository } from '../repositories/tenant-repository';
import { registerConfigRoutes } from '../routes/config-routes';
import { registerDictRoutes } from '../routes/dict-routes';
import { registerTenantRoutes } from '../routes/tenant-routes';
import { ConfigService } from '../services/config-service';
import { DictService } from '../services/dict-service';
import { TenantService } from '../services/tenant-service';
import type { BlobStore } from '../storage/byte-store';
import type { Base, Routed } from './base';

export interface Tenants extends Routed {
  /** Tenants, their switches (exchange area, public download, sync time…) and images. */
  service: TenantService;
  /** The system config (brand, logo) every client reads first; also drawn into a link's page. */
  config: ConfigService;
  /** Dictionaries and static data (the `quota` list the account checks follow). */
  dicts: DictService;
}

export interface TenantsDeps extends Omit<Base, 'log'> {
  blobs: BlobStore;
  /** The account policy's password expiry, shown in the system config. */
  passwordExpiryDays: number;
}

/** Tenants, their settings and dictionaries, and the system config every client reads first. */
export async function buildTenants({ db, blobs, passwordExpiryDays }: TenantsDeps): Promise<Tenants> {
  const tenants = new TenantRepository(db);
  const tenantConfig = new TenantConfigRepository(db);
  const dicts = new DictService(tenantConfig);
  const helpLine = async (tenantId: string) => (await dicts.staticData(tenantId, ['customerTelephone'])).customerTelephone?.[0]?.value ?? '';
  const service = new TenantService(tenants, tenantConfig, blobs, helpLine);
  await service.init();
  const configService = new ConfigService({
    tenants,
    blobs,
    passwordExpiryDays,
    disabledModules: (tenantId) => dicts.disabledModules(tenantId),
    customerTelephone: helpLine,
  });
  return {
    service,
    config: configService,
    dicts,
    routes(app: FastifyInstance) {
      registerConfigRoutes(app, configService);
      registerTenantRoutes(app, service);
      registerDictRoutes(app, dicts);
    },
  };
}
