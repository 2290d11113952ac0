import type { Db } from '../db/database';
import type { ClientReleasesTable } from '../db/schema';

/** Each tenant's desktop release per client type (migration 0088). */
export class ClientReleaseRepository {
  constructor(private readonly db: Db) {}

  find(tenantId: string, clientType: number): Promise<ClientReleasesTable | undefined> {
    return this.db.selectFrom('client_releases').selectAll().where('tenant_id', '=', tenantId).where('client_type', '=', clientType).executeTakeFirst();
  }

  all(tenantId: string): Promise<ClientReleasesTable[]> {
    return this.db.selectFrom('client_releases').selectAll().where('tenant_id', '=', tenantId).orderBy('client_type').execute();
  }

  async save(row: ClientReleasesTable): Promise<void> {
    const { tenant_id: _t, client_type: _c, ...changes } = row;
    await this.db
      .insertInto('client_releases')
      .values(row)
      .onConflict((oc) => oc.columns(['tenant_id', 'client_type']).doUpdateSet(changes))
      .execute();
  }
}
