/**
 * A value per tenant kept in this process (the organisation tree, the tenant's settings row), right
 * across processes: a change made through any process drops the copy there at once (`changed`) and in
 * the others when they hear of it over the event bus (the composition wires the bus topic to `forget`,
 * and a gap of the bus to `forget()` of every tenant). `maxAgeMs` is the backstop for a write that did
 * not go through `changed` (a row written straight into the database by hand or by a tool).
 *
 * One load per tenant at a time: readers arriving while it runs share it (a burst of cold requests
 * costs one load). A load that was running when a change was heard is answered but not kept: it may
 * have read the rows before the change.
 */
export class PerTenantCache<T> {
  private readonly cache = new Map<string, { at: number; value: Promise<T> }>();
  private version = 0;

  constructor(
    private readonly load: (tenantId: string) => Promise<T>,
    /** Tells the other server processes (the event bus); they call `forget`. Never throws. */
    private readonly announce: (tenantId: string) => Promise<void>,
    private readonly maxAgeMs: number,
  ) {}

  get(tenantId: string, now = Date.now()): Promise<T> {
    const cached = this.cache.get(tenantId);
    if (cached && now - cached.at < this.maxAgeMs) return cached.value;
    const version = this.version;
    const value = this.load(tenantId);
    const entry = { at: now, value };
    this.cache.set(tenantId, entry);
    const drop = () => {
      if (this.cache.get(tenantId) === entry) this.cache.delete(tenantId);
    };
    value.then(() => version !== this.version && drop(), drop);
    return value;
  }

  /** The tenant's value changed (committed): the next read is fresh, here and, once told, in every other process. */
  async changed(tenantId: string): Promise<void> {
    this.forget(tenantId);
    // Awaited: once the change's answer is out, every process has been told (its next read is fresh).
    await this.announce(tenantId);
  }

  /** Drops the copy of a tenant (undefined: of every tenant) without telling anyone. */
  forget(tenantId?: string): void {
    this.version++;
    if (tenantId === undefined) this.cache.clear();
    else this.cache.delete(tenantId);
  }
}
