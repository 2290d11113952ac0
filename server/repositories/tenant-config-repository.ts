import type { Db } from '../db/database';
import type { DictItemsTable, TenantSwitchesTable } from '../db/schema';

/** A tenant's admin switches and its changes to the default dictionaries. */
export class TenantConfigRepository {
  constructor(private readonly db: Db) {}

  switches(tenantId: string): Promise<TenantSwitchesTable[]> {
    return this.db.selectFrom('tenant_switches').selectAll().where('tenant_id', '=', tenantId).execute();
  }

  async setSwitch(tenantId: string, key: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto('tenant_switches')
      .values({ tenant_id: tenantId, key, value, updated_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'key']).doUpdateSet({ value, updated_at: now }))
      .execute();
  }

  dictItems(tenantId: string, groups: readonly string[] | null): Promise<DictItemsTable[]> {
    let q = this.db.selectFrom('dict_items').selectAll().where('tenant_id', '=', tenantId);
    if (groups) q = q.where('group_code', 'in', groups.length > 0 ? groups : ['']);
    return q.execute();
  }

  async upsertDictItem(row: DictItemsTable): Promise<void> {
    const { tenant_id: _t, group_code: _g, item_code: _i, ...changes } = row;
    await this.db
      .insertInto('dict_items')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'group_code', 'item_code']).doUpdateSet(changes))
      .execute();
  }
}
