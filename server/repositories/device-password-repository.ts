import type { Db } from '../db/database';
import type { DevicePasswordsTable, UsersTable } from '../db/schema';

/** A live device password with its owner, as one WebDAV request needs them (one statement). */
export interface DevicePasswordWithUser {
  password: DevicePasswordsTable;
  user: UsersTable;
}

/** 设备密码 rows (migration 0095). Every query names the tenant and user, except the lookup by public id. */
export class DevicePasswordRepository {
  constructor(private readonly db: Db) {}

  async insert(row: DevicePasswordsTable): Promise<void> {
    await this.db.insertInto('device_passwords').values(row).execute();
  }

  /** The user's live (not revoked) passwords, newest first. */
  listLive(tenantId: string, userId: string): Promise<DevicePasswordsTable[]> {
    return this.db
      .selectFrom('device_passwords')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /**
   * The live password with this public id and its live owner, in one statement (the path of every
   * WebDAV request). A revoked password or a deleted owner is not found.
   */
  async findLiveByPublicId(publicId: string): Promise<DevicePasswordWithUser | undefined> {
    const row = await this.db
      .selectFrom('device_passwords as d')
      .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'd.user_id').onRef('u.tenant_id', '=', 'd.tenant_id'))
      .selectAll('u')
      .select([
        'd.id as d_id',
        'd.public_id as d_public_id',
        'd.name as d_name',
        'd.secret_hash as d_secret_hash',
        'd.created_at as d_created_at',
        'd.last_used_at as d_last_used_at',
        'd.last_used_address as d_last_used_address',
      ])
      .where('d.public_id', '=', publicId)
      .where('d.revoked_at', 'is', null)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const { d_id, d_public_id, d_name, d_secret_hash, d_created_at, d_last_used_at, d_last_used_address, ...user } = row;
    return {
      password: {
        id: d_id,
        tenant_id: user.tenant_id,
        user_id: user.id,
        public_id: d_public_id,
        name: d_name,
        secret_hash: d_secret_hash,
        created_at: Number(d_created_at),
        last_used_at: d_last_used_at === null ? null : Number(d_last_used_at),
        last_used_address: d_last_used_address,
        revoked_at: null,
      },
      user: user as UsersTable,
    };
  }

  /** Marks one of the user's live passwords revoked; the row it was (undefined: none such). */
  async revoke(tenantId: string, userId: string, id: string, now: number): Promise<DevicePasswordsTable | undefined> {
    const row = await this.db
      .selectFrom('device_passwords')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const r = await this.db
      .updateTable('device_passwords')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0 ? row : undefined;
  }

  async touch(id: string, now: number, address: string | null): Promise<void> {
    await this.db.updateTable('device_passwords').set({ last_used_at: now, last_used_address: address }).where('id', '=', id).execute();
  }
}
