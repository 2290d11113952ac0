import type { Db } from '../db/database';
import type { UsersTable } from '../db/schema';

export class UserRepository {
  constructor(private readonly db: Db) {}

  findByUsername(username: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  findById(id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async insert(row: UsersTable): Promise<void> {
    await this.db.insertInto('users').values(row).execute();
  }

  /** The user with this id in this tenant: another tenant's id reads as absent (→ NOT_FOUND). */
  findInTenant(tenantId: string, id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findByPhone(phone: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('phone', '=', phone).executeTakeFirst();
  }

  async countAdmins(tenantId: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('role', '=', 'admin')
      .executeTakeFirstOrThrow();
    return Number(row.n);
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
      >
    >,
  ): Promise<void> {
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }
}
