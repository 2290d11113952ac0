import { sql } from 'kysely';
import type { Db } from '../db/database';
import { accountKey } from '../../common/org/account';
import type { UsersTable } from '../db/schema';

export class UserRepository {
  constructor(private readonly db: Db) {}

  /**
   * Live accounts a login name may mean: its case-insensitive key, in one tenant or in all of them
   * (accounts are unique per tenant only), plus an exact-name match for the rare account whose key the
   * migration could not give it (two names differing only in case in one tenant).
   */
  async findLoginCandidates(name: string, tenantId?: string): Promise<UsersTable[]> {
    const trimmed = name.trim();
    if (!trimmed) return [];
    let q = this.db
      .selectFrom('users')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('username_key', '=', accountKey(trimmed)), eb('username', '=', trimmed)]));
    if (tenantId !== undefined) q = q.where('tenant_id', '=', tenantId);
    return q.orderBy('created_at').orderBy('id').limit(20).execute();
  }

  /** A live account of one tenant by its (case-insensitive) name. */
  findByAccountInTenant(tenantId: string, name: string): Promise<UsersTable | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('username_key', '=', accountKey(name))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  findById(id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: UsersTable): Promise<void> {
    await this.db.insertInto('users').values({ ...row, username_key: row.username_key ?? accountKey(row.username) }).execute();
  }

  /** The live user with this id in this tenant: another tenant's id (or a deleted account) reads as absent (→ NOT_FOUND). */
  findInTenant(tenantId: string, id: string): Promise<UsersTable | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Users of a tenant whose account or nickname contains `keyword` (LIKE, case-insensitive for ASCII). */
  search(tenantId: string, keyword: string, limit: number): Promise<UsersTable[]> {
    let q = this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('deleted_at', 'is', null);
    if (keyword) {
      // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not (db/dialect.ts).
      const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/[A-Z]/g, (c) => c.toLowerCase())}%`;
      q = q.where((eb) => eb.or([sql<boolean>`lower(username) like ${pattern} escape '\\'`, sql<boolean>`lower(nick_name) like ${pattern} escape '\\'`]));
    }
    return q.orderBy('username').limit(limit).execute();
  }

  findByPhone(phone: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('phone', '=', phone).where('deleted_at', 'is', null).executeTakeFirst();
  }

  /**
   * Changes a role in one statement that refuses to demote the tenant's last admin (two admins
   * demoting each other at once cannot both succeed). Returns false when refused.
   */
  async setRoleKeepingAnAdmin(tenantId: string, id: string, role: 'admin' | 'member'): Promise<boolean> {
    let q = this.db.updateTable('users').set({ role }).where('id', '=', id).where('tenant_id', '=', tenantId);
    if (role !== 'admin') {
      q = q.where((eb) =>
        eb(
          eb
            .selectFrom('users as other')
            .select((e) => e.fn.countAll<number>().as('n'))
            .where('other.tenant_id', '=', tenantId)
            .where('other.role', '=', 'admin')
            .where('other.deleted_at', 'is', null)
            .where('other.id', '!=', id),
          '>',
          0,
        ),
      );
    }
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async update(
    id: string,
    patch: Partial<
      Pick<
        UsersTable,
        | 'role'
        | 'locked'
        | 'locked_reason'
        | 'outer_login'
        | 'agreement_read_at'
        | 'password_hash'
        | 'must_change_password'
        | 'password_changed_at'
        | 'phone'
        | 'nick_name'
        | 'avatar'
      >
    >,
  ): Promise<void> {
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** Whether a user of the tenant has this avatar path (an avatar is shown only within its tenant). */
  async avatarInTenant(tenantId: string, avatarPath: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('tenant_id', '=', tenantId).where('avatar', '=', avatarPath).executeTakeFirst();
    return row !== undefined;
  }
}
