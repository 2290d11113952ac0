import type { Db } from '../db/database';

/** A tenant's security settings (sharing policy, exchange rules) as JSON by key. */
export class SecuritySettingsRepository {
  constructor(private readonly db: Db) {}

  async get(tenantId: string, key: string): Promise<unknown> {
    const row = await this.db.selectFrom('security_settings').select('value').where('tenant_id', '=', tenantId).where('key', '=', key).executeTakeFirst();
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      return undefined;
    }
  }

  async set(tenantId: string, key: string, value: unknown, now: number): Promise<void> {
    const json = JSON.stringify(value);
    await this.db
      .insertInto('security_settings')
      .values({ tenant_id: tenantId, key, value: json, updated_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ value: json, updated_at: now }))
      .execute();
  }
}
