import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { UsersTable } from '../db/schema';

export type PersonRef = Pick<UsersTable, 'id' | 'username' | 'nick_name' | 'role' | 'department_id'>;

/**
 * What sharing needs to know about people, departments and groups of a tenant (names for the pages,
 * who exists, department chains and managers for the policy). Every look-up is tenant-scoped: an id
 * of another tenant is simply not found.
 */
export class SharingLookupRepository {
  constructor(private readonly db: Db) {}

  /** Live accounts of the tenant among `ids`. */
  async people(tenantId: string, ids: readonly string[]): Promise<PersonRef[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'nick_name', 'role', 'department_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...new Set(ids)])
      .where('deleted_at', 'is', null)
      .execute();
  }

  /** Accounts (deleted ones too: history keeps their names) by id. */
  async anyPeople(tenantId: string, ids: readonly string[]): Promise<PersonRef[]> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'nick_name', 'role', 'department_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  async admins(tenantId: string): Promise<PersonRef[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'nick_name', 'role', 'department_id'])
      .where('tenant_id', '=', tenantId)
      .where('role', '=', 'admin')
      .where('deleted_at', 'is', null)
      .orderBy('username_key')
      .execute();
  }

  async departments(tenantId: string, ids: readonly string[]): Promise<Array<{ id: string; name: string; parent_id: string | null; manager_id: string | null }>> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('departments')
      .select(['id', 'name', 'parent_id', 'manager_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  /** Department ids from `id` up to the top, `id` first (with each one's manager). */
  async departmentChain(tenantId: string, id: string | null | undefined): Promise<Array<{ id: string; manager_id: string | null }>> {
    if (!id) return [];
    const result = await sql<{ id: string; manager_id: string | null; depth: number }>`
      with recursive chain(id, parent_id, manager_id, depth) as (
        select id, parent_id, manager_id, 0 from departments where id = ${id} and tenant_id = ${tenantId}
        union all
        select d.id, d.parent_id, d.manager_id, chain.depth + 1 from departments d join chain on d.id = chain.parent_id
          where d.tenant_id = ${tenantId} and chain.depth < 64
      )
      select id, manager_id, depth from chain order by depth`.execute(this.db);
    return result.rows.map((r) => ({ id: r.id, manager_id: r.manager_id }));
  }

  /** Groups of the tenant among `ids` (group spaces only). */
  async groups(tenantId: string, ids: readonly string[]): Promise<Array<{ id: string; name: string }>> {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('spaces')
      .select(['id', 'name'])
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', 'group')
      .where('id', 'in', [...new Set(ids)])
      .execute();
  }

  /** Departments of the members of a group (to tell whether a share reaches another department). */
  async groupMemberDepartments(groupId: string): Promise<Array<string | null>> {
    const rows = await this.db
      .selectFrom('space_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('u.department_id')
      .distinct()
      .where('m.space_id', '=', groupId)
      .where('u.deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.department_id ?? null);
  }

  /**
   * The live people of the tenant a set of share recipients reaches today: the persons themselves,
   * everyone in a department's subtree, a group's members (who hears of a share: notices).
   */
  async reachedPeople(tenantId: string, recipients: ReadonlyArray<{ type: 'user' | 'dept' | 'group'; id: string }>): Promise<string[]> {
    const userIds = recipients.filter((r) => r.type === 'user').map((r) => r.id);
    const deptIds = (await Promise.all(recipients.filter((r) => r.type === 'dept').map((r) => this.subtree(tenantId, r.id)))).flat();
    const groupIds = recipients.filter((r) => r.type === 'group').map((r) => r.id);
    if (userIds.length + deptIds.length + groupIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('users as u')
      .select('u.id')
      .where('u.tenant_id', '=', tenantId)
      .where('u.deleted_at', 'is', null)
      .where((eb) => {
        const terms = [];
        if (userIds.length > 0) terms.push(eb('u.id', 'in', userIds));
        if (deptIds.length > 0) terms.push(eb('u.department_id', 'in', deptIds));
        if (groupIds.length > 0)
          terms.push(
            eb(
              'u.id',
              'in',
              eb.selectFrom('space_members as m').innerJoin('spaces as s', 's.id', 'm.space_id').select('m.user_id').where('m.space_id', 'in', groupIds).where('s.tenant_id', '=', tenantId),
            ),
          );
        return eb.or(terms);
      })
      .execute();
    return rows.map((r) => r.id);
  }

  /** Department ids in the subtree of `id` (itself included). */
  async subtree(tenantId: string, id: string): Promise<string[]> {
    const result = await sql<{ id: string }>`
      with recursive tree(id, depth) as (
        select id, 0 from departments where id = ${id} and tenant_id = ${tenantId}
        union all
        select d.id, tree.depth + 1 from departments d join tree on d.parent_id = tree.id where tree.depth < 64
      )
      select id from tree`.execute(this.db);
    return result.rows.map((r) => r.id);
  }

  /** Does the live tree under one of these folders hold a name containing one of the keywords? */
  async treeHasKeyword(tenantId: string, rootIds: readonly string[], keywords: readonly string[]): Promise<boolean> {
    const words = keywords.filter((k) => k !== '');
    if (rootIds.length === 0 || words.length === 0) return false;
    const roots = sql.join(rootIds.map((i) => sql`${i}`));
    const likes = sql.join(
      words.map((w) => sql`files.name_key like ${`%${w.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`} escape '\\'`),
      sql` or `,
    );
    const result = await sql<{ id: string }>`
      with recursive tree(id, depth) as (
        select id, 0 from files where id in (${roots}) and tenant_id = ${tenantId} and deleted_at is null
        union all
        select f.id, tree.depth + 1 from files f join tree on f.parent_id = tree.id where f.deleted_at is null and tree.depth < 1000
      )
      select files.id from tree join files on files.id = tree.id where ${likes} limit 1`.execute(this.db);
    return result.rows.length > 0;
  }
}
