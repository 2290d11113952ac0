import type { CheckRepository } from '../repositories/check-repository';
import { PerTenantCache } from './per-tenant-cache';

/** The bus topic of a change to a tenant's settings row (payload `{ t: tenantId }`): every process drops its cached copy. */
export const TENANT_SETTINGS_CHANGED = 'tenant.settings.changed';

/**
 * How long a cached copy is used without hearing of a change: the backstop for a write that did not
 * go through `changed` (a row written straight into the database by hand or by a tool). Every write of
 * the server goes through `changed`, which is what keeps the copies right.
 */
export const TENANT_SETTINGS_CACHE_MS = 60_000;

export type TenantFileSettings = Awaited<ReturnType<CheckRepository['tenantSettings']>>;

/**
 * The tenant's settings row (sensitive keywords, blocked types) as every page of entries needs it
 * (EntryDecorator: each entry says whether its name holds a sensitive keyword), kept per process so a
 * folder list costs no statement for it; a change through any process reaches every copy
 * (PerTenantCache; compose/files.ts wires TENANT_SETTINGS_CHANGED and the bus's gaps to `forget`).
 */
export class TenantSettingsCache extends PerTenantCache<TenantFileSettings> {
  constructor(checks: CheckRepository, announce: (tenantId: string) => Promise<void> = async () => undefined, maxAgeMs = TENANT_SETTINGS_CACHE_MS) {
    super((tenantId) => checks.tenantSettings(tenantId), announce, maxAgeMs);
  }
}
