import type { Db } from '../db/database';
import { nameSortKey } from '../../common/files/name-sort-key';
import type { FilesTable, SpaceMembersTable, SpacesTable } from '../db/schema';

export interface SpaceWithRole extends SpacesTable {
  /** The caller's role, or null when not a member. */
  role: SpaceMembersTable['role'] | null;
  member_count: number;
}

/** Group and public spaces, and group membership. */
export class SpaceRepository {
  constructor(private readonly db: Db) {}

  find(tenantId: string, id: string): Promise<SpacesTable | undefined> {
    return this.db.selectFrom('spaces').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findPublic(tenantId: string): Promise<SpacesTable | undefined> {
    return this.db.selectFrom('spaces').selectAll().where('tenant_id', '=', tenantId).where('kind', '=', 'public').executeTakeFirst();
  }

  async roleOf(spaceId: string, userId: string): Promise<SpaceMembersTable['role'] | null> {
    const row = await this.db
      .selectFrom('space_members')
      .select('role')
      .where('space_id', '=', spaceId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  /** Group spaces with the user's role and member count; `all` = every group of the tenant (admins). */
  async listGroups(tenantId: string, userId: string, all: boolean): Promise<SpaceWithRole[]> {
    let q = this.db
      .selectFrom('spaces as s')
      .leftJoin('space_members as m', (j) => j.onRef('m.space_id', '=', 's.id').on('m.user_id', '=', userId))
      .selectAll('s')
      .select('m.role as role')
      .select((eb) =>
        eb.selectFrom('space_members as c').select((e) => e.fn.countAll<number>().as('n')).whereRef('c.space_id', '=', 's.id').as('member_count'),
      )
      .where('s.tenant_id', '=', tenantId)
      .where('s.kind', '=', 'group');
    if (!all) q = q.where('m.user_id', 'is not', null);
    const rows = await q.orderBy('s.name_key').execute();
    return rows.map((r) => ({ ...r, role: r.role ?? null, member_count: Number(r.member_count ?? 0) }));
  }

  /** Ids of every group space the user belongs to. */
  async groupIdsOf(tenantId: string, userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('space_members as m')
      .innerJoin('spaces as s', 's.id', 'm.space_id')
      .select('s.id')
      .where('m.user_id', '=', userId)
      .where('s.tenant_id', '=', tenantId)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Names of these spaces (one query). */
  async names(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('spaces').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  /** A space and its root folder in one transaction (the folder row first: the space points at it). */
  async create(space: SpacesTable, root: FilesTable, owner: SpaceMembersTable | null): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('files').values(root).execute();
      await tx.insertInto('spaces').values(space).execute();
      if (owner) await tx.insertInto('space_members').values(owner).execute();
    });
  }

  async rename(id: string, name: string, nameKey: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const space = await tx.updateTable('spaces').set({ name, name_key: nameKey }).where('id', '=', id).returning('root_id').executeTakeFirst();
      if (space) await tx.updateTable('files').set({ name, sort_key: nameSortKey(name) }).where('id', '=', space.root_id).execute();
    });
  }

  /** True when any entry (live or in a recycle bin) other than the root lives in the space. */
  async hasEntries(space: SpacesTable): Promise<boolean> {
    const row = await this.db
      .selectFrom('files')
      .select('id')
      .where('space_id', '=', space.id)
      .where('id', '!=', space.root_id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async delete(space: SpacesTable): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('space_members').where('space_id', '=', space.id).execute();
      await tx.deleteFrom('spaces').where('id', '=', space.id).execute();
      await tx.deleteFrom('favorites').where('file_id', '=', space.root_id).execute();
      await tx.deleteFrom('files').where('id', '=', space.root_id).execute();
    });
  }

  members(spaceId: string) {
    return this.db
      .selectFrom('space_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id', 'm.role', 'm.joined_at', 'u.username', 'u.nick_name'])
      .where('m.space_id', '=', spaceId)
      .orderBy('m.joined_at')
      .execute();
  }

  async upsertMember(row: SpaceMembersTable): Promise<void> {
    await this.db
      .insertInto('space_members')
      .values(row)
      .onConflict((oc) => oc.columns(['space_id', 'user_id']).doUpdateSet({ role: row.role }))
      .execute();
  }

  /**
   * Changes (or removes, role null) a member's role, refusing to leave the group without an owner:
   * the count and the change happen in one transaction. Returns false when that would happen.
   */
  async changeMember(spaceId: string, userId: string, role: SpaceMembersTable['role'] | null): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const owners = await tx
        .selectFrom('space_members')
        .select('user_id')
        .where('space_id', '=', spaceId)
        .where('role', '=', 'owner')
        .execute();
      const isOwner = owners.some((o) => o.user_id === userId);
      if (isOwner && owners.length === 1 && role !== 'owner') return false;
      if (role === null) await tx.deleteFrom('space_members').where('space_id', '=', spaceId).where('user_id', '=', userId).execute();
      else await tx.updateTable('space_members').set({ role }).where('space_id', '=', spaceId).where('user_id', '=', userId).execute();
      return true;
    });
  }
}
