import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { TenantsTable } from '../db/schema';

export type TenantProfilePatch = Partial<
  Pick<TenantsTable, 'name' | 'brand_name' | 'alias' | 'alias_key' | 'logo_key' | 'logo_type' | 'background_key' | 'background_type' | 'home_url'>
>;

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

  /** A tenant by id or by alias (case-insensitive). */
  findByIdOrAlias(idOrAlias: string): Promise<TenantsTable | undefined> {
    return this.db
      .selectFrom('tenants')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrAlias), eb('alias_key', '=', idOrAlias.toLowerCase())]))
      .orderBy(sql`case when id = ${idOrAlias} then 0 else 1 end`)
      .limit(1)
      .executeTakeFirst();
  }

  /** Changes the profile; a taken alias makes the unique index refuse it (isUniqueViolation). */
  async updateProfile(id: string, patch: TenantProfilePatch, now: number): Promise<void> {
    await this.db.updateTable('tenants').set({ ...patch, updated_at: now }).where('id', '=', id).execute();
  }

  /** Tenants with their live user counts, oldest first (at most `limit`). */
  async listWithUserCounts(onlyId: string | null, limit: number): Promise<Array<TenantsTable & { user_count: number }>> {
    let q = this.db
      .selectFrom('tenants as t')
      .selectAll('t')
      .select((eb) => eb.selectFrom('users as u').select((e) => e.fn.countAll<number>().as('n')).whereRef('u.tenant_id', '=', 't.id').as('user_count'))
      .orderBy('t.created_at')
      .orderBy('t.id')
      .limit(limit);
    if (onlyId !== null) q = q.where('t.id', '=', onlyId);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }));
  }

  /**
   * Makes sure a platform admin exists: when no user has the flag, the first administrator of the
   * first tenant gets it (the seeded `admin` of a fresh install). Returns that user's id, or null.
   */
  async ensurePlatformAdmin(): Promise<string | null> {
    const flagged = await this.db.selectFrom('users').select('id').where('platform_admin', '=', 1).limit(1).executeTakeFirst();
    if (flagged) return flagged.id;
    const first = await this.db
      .selectFrom('users as u')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select('u.id')
      .where('u.role', '=', 'admin')
      .orderBy('t.created_at')
      .orderBy('t.id')
      .orderBy('u.created_at')
      .orderBy('u.id')
      .limit(1)
      .executeTakeFirst();
    if (!first) return null;
    await this.db.updateTable('users').set({ platform_admin: 1 }).where('id', '=', first.id).execute();
    return first.id;
  }
}
