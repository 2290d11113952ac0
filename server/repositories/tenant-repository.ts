import type { Db } from '../db/database';
import type { TenantsTable } from '../db/schema';

export class TenantRepository {
  constructor(private readonly db: Db) {}

  findById(id: string): Promise<TenantsTable | undefined> {
    return this.db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The tenant shown to visitors without a session (single-tenant deployments: the only one). */
  findDefault(): Promise<TenantsTable | undefined> {
    return this.db.selectFrom('tenants').selectAll().orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  }

  async insert(row: TenantsTable): Promise<void> {
    await this.db.insertInto('tenants').values(row).execute();
  }
}
