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
}
