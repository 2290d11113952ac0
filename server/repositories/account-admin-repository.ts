import type { Db } from '../db/database';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { UsersTable } from '../db/schema';
import { newId } from '../ids';

export interface OwnedFiles {
  entries: number;
  bytes: number;
}

export interface HandOverOutcome extends OwnedFiles {
  folderName: string | null;
}

/** Why a delete or hand-over was refused inside its transaction (the service maps it to an error). */
export class AccountRefusal extends Error {
  constructor(readonly reason: 'notFound' | 'hasFiles' | 'lastAdmin', readonly owned?: OwnedFiles) {
    super(reason);
  }
}

/**
 * The admin's account writes that touch several tables at once: deleting an account and handing
 * its files to another one, each in ONE transaction (nothing half done if anything fails).
 */
export class AccountAdminRepository {
  constructor(private readonly db: Db) {}

  /** What an account owns (read through `conn`: inside a transaction, never the pool's other handle). */
  async owned(userId: string, conn: Db | Tx = this.db): Promise<OwnedFiles> {
    const r = await conn
      .selectFrom('files')
      .select([(eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.lit(0)).as('bytes')])
      .where('owner_id', '=', userId)
      .executeTakeFirst();
    return { entries: Number(r?.n ?? 0), bytes: Number(r?.bytes ?? 0) };
  }

  /**
   * Soft delete (rules: UserDeleteRequest): refused while the account owns any entry or is the
   * tenant's last admin, both checked in the transaction that deletes.
   */
  async softDelete(tenantId: string, userId: string, now: number): Promise<UsersTable> {
    return this.db.transaction().execute(async (tx) => {
      const user = await tx.selectFrom('users').selectAll().where('id', '=', userId).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).executeTakeFirst();
      if (!user) throw new AccountRefusal('notFound');
      const owned = await this.owned(userId, tx);
      if (owned.entries > 0) throw new AccountRefusal('hasFiles', owned);
      if (user.role === 'admin') {
        const admins = await tx
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('tenant_id', '=', tenantId)
          .where('role', '=', 'admin')
          .where('deleted_at', 'is', null)
          .where('id', '!=', userId)
          .executeTakeFirst();
        if (Number(admins?.n ?? 0) === 0) throw new AccountRefusal('lastAdmin');
      }
      await tx.updateTable('users').set({ deleted_at: now, locked: 1, locked_reason: 'admin' }).where('id', '=', userId).execute();
      await tx.updateTable('sessions').set({ ended_reason: 'deleted' }).where('user_id', '=', userId).execute();
      await tx.deleteFrom('space_members').where('user_id', '=', userId).execute();
      await tx.deleteFrom('favorites').where('user_id', '=', userId).execute();
      await tx.updateTable('files').set({ locked_by: null }).where('locked_by', '=', userId).execute();
      await tx.updateTable('departments').set({ manager_id: null }).where('manager_id', '=', userId).execute();
      // Partial uploads expire now: the sweeper removes their rows and chunk files together.
      await tx.updateTable('uploads').set({ expires_at: 0 }).where('user_id', '=', userId).execute();
      await tx.deleteFrom('text_holds').where('user_id', '=', userId).execute();
      await tx.deleteFrom('unprocessed_uploads').where('user_id', '=', userId).execute();
      return user;
    });
  }

  /** Every entry `from` owns becomes `to`'s (rules: HandOverFilesRequest), in one transaction. */
  async handOverFiles(tenantId: string, fromId: string, toId: string, folderBaseName: string, now: number): Promise<HandOverOutcome> {
    return this.db.transaction().execute(async (tx) => {
      const live = (id: string) =>
        tx.selectFrom('users').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).executeTakeFirst();
      const from = await live(fromId);
      const to = await live(toId);
      if (!from || !to) throw new AccountRefusal('notFound');
      const totals = await tx
        .selectFrom('files')
        .select([(eb) => eb.fn.countAll<number>().as('n')])
        .where('owner_id', '=', fromId)
        .executeTakeFirst();
      const entries = Number(totals?.n ?? 0);
      const bytes = Number(from.used_size);

      // Top-level entries of the personal categories (live or in the recycle bin) go into one new folder per category.
      const categories = await tx
        .selectFrom('files')
        .select('category')
        .distinct()
        .where('owner_id', '=', fromId)
        .where('parent_id', 'is', null)
        .where('space_id', 'is', null)
        .execute();
      let folderName: string | null = null;
      for (const { category } of categories) {
        const name = await freeRootName(tx, tenantId, toId, category, folderBaseName);
        folderName ??= name;
        const folderId = newId();
        await tx
          .insertInto('files')
          .values({ id: folderId, tenant_id: tenantId, owner_id: toId, parent_id: null, category, name, name_key: name.toLowerCase(), sort_key: nameSortKey(name), is_dir: 1, size: 0, blob_id: null, created_at: now, updated_at: now, space_id: null })
          .execute();
        await tx
          .updateTable('files')
          .set({ parent_id: folderId })
          .where('owner_id', '=', fromId)
          .where('parent_id', 'is', null)
          .where('space_id', 'is', null)
          .where('category', '=', category)
          .where('id', '!=', folderId)
          .execute();
      }
      await tx.updateTable('files').set({ owner_id: toId }).where('owner_id', '=', fromId).execute();
      // What `from` deleted of these entries stays in a recycle bin: the recipient's.
      await tx.updateTable('files').set({ deleted_by: toId }).where('deleted_by', '=', fromId).where('owner_id', '=', toId).execute();
      // Groups `from` owns get the recipient as an owner too (their root folders are among the entries).
      const owned = await tx.selectFrom('space_members').select('space_id').where('user_id', '=', fromId).where('role', '=', 'owner').execute();
      for (const { space_id } of owned) {
        await tx
          .insertInto('space_members')
          .values({ space_id, user_id: toId, role: 'owner', joined_at: now })
          .onConflict((oc) => oc.columns(['space_id', 'user_id']).doUpdateSet({ role: 'owner' }))
          .execute();
      }
      await tx.updateTable('users').set({ used_size: 0 }).where('id', '=', fromId).execute();
      await tx
        .updateTable('users')
        .set((eb) => ({ used_size: eb('used_size', '+', bytes), quota: eb('quota', '+', bytes) }))
        .where('id', '=', toId)
        .execute();
      return { entries, bytes, folderName };
    });
  }
}

type Tx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];

/** `base`, or `base (2)`, `base (3)`… whichever is free among the live root entries of that category. */
async function freeRootName(tx: Tx, tenantId: string, ownerId: string, category: number, base: string): Promise<string> {
  for (let n = 1; n < 10_000; n++) {
    const name = n === 1 ? base : `${base} (${n})`;
    const taken = await tx
      .selectFrom('files')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('owner_id', '=', ownerId)
      .where('category', '=', category)
      .where('parent_id', 'is', null)
      .where('deleted_at', 'is', null)
      .where('name_key', '=', name.toLowerCase())
      .executeTakeFirst();
    if (!taken) return name;
  }
  return `${base} ${now36()}`;
}

const now36 = (): string => Date.now().toString(36);

export type ProfilePatch = Pick<UsersTable, 'username' | 'username_key' | 'nick_name' | 'phone' | 'department_id' | 'quota' | 'outer_login'> &
  Partial<Pick<UsersTable, 'password_hash' | 'must_change_password' | 'password_changed_at'>>;

/** Profile and role of one account in one transaction; the role change keeps a tenant admin. */
export async function editProfile(db: Db, tenantId: string, id: string, patch: ProfilePatch, role: UsersTable['role'] | null): Promise<'ok' | 'lastAdmin'> {
  return db
    .transaction()
    .execute(async (tx) => {
      await tx.updateTable('users').set(patch).where('id', '=', id).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).execute();
      if (role === null) return 'ok' as const;
      let q = tx.updateTable('users').set({ role }).where('id', '=', id).where('tenant_id', '=', tenantId);
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
      if (Number(r.numUpdatedRows) !== 1) throw new LastAdmin();
      return 'ok' as const;
    })
    .catch((err: unknown) => {
      if (err instanceof LastAdmin) return 'lastAdmin' as const;
      throw err;
    });
}

class LastAdmin extends Error {}
