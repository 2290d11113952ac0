import type { CheckRepository } from '../repositories/check-repository';

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
 * folder list costs no statement for it. A change made through any process drops the copy in that
 * process at once (`changed`) and in the others when they hear of it over the event bus
 * (compose/files.ts: `forget` on TENANT_SETTINGS_CHANGED, every copy on a gap of the bus).
 *
 * One read per tenant at a time: readers arriving while it runs share it (a burst of cold requests
 * costs one statement). A read that was running when a change was heard is not kept.
 */
export class TenantSettingsCache {
  private readonly cache = new Map<string, { at: number; settings: Promise<TenantFileSettings> }>();
  private version = 0;

  constructor(
    private readonly checks: CheckRepository,
    /** Tells the other server processes (the event bus); they call `forget`. Never throws. */
    private readonly announce: (tenantId: string) => Promise<void> = async () => undefined,
    private readonly maxAgeMs = TENANT_SETTINGS_CACHE_MS,
  ) {}

  get(tenantId: string, now = Date.now()): Promise<TenantFileSettings> {
    const cached = this.cache.get(tenantId);
    if (cached && now - cached.at < this.maxAgeMs) return cached.settings;
    const version = this.version;
    const settings = this.checks.tenantSettings(tenantId);
    const entry = { at: now, settings };
    this.cache.set(tenantId, entry);
    const drop = () => {
      if (this.cache.get(tenantId) === entry) this.cache.delete(tenantId);
    };
    // A change heard while this read ran may have come after the row was read: not kept.
    settings.then(() => version !== this.version && drop(), drop);
    return settings;
  }

  /** A tenant's settings changed (committed): the next read is fresh, in this process and, once told, in every other. */
  async changed(tenantId: string): Promise<void> {
    this.forget(tenantId);
    await this.announce(tenantId);
  }

  /** Drops the cached copy of a tenant (undefined: of every tenant) without telling anyone. */
  forget(tenantId?: string): void {
    this.version++;
    if (tenantId === undefined) this.cache.clear();
    else this.cache.delete(tenantId);
  }
}
