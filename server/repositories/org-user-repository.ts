import { sql, type Expression, type SqlBool } from 'kysely';
import type { RoleCode } from '../../common/api/types';
import type { UserState } from '../../common/api/org-types';
import type { Db } from '../db/database';
import type { UsersTable } from '../db/schema';

export interface PeopleFilter {
  /** The department alone, or with its whole subtree. */
  department?: { id: string; withSub: boolean };
  /** Members of this group space. */
  groupId?: string;
  role?: RoleCode;
  state?: UserState;
  /** Part of the account, nickname or phone. */
  keyword?: string;
}

export interface PersonRow extends UsersTable {
  /** 1 when the account name is locked by failed logins (login_failures). */
  failure_locked: number;
  group_role: 'owner' | 'manager' | 'member' | null;
}

const likePattern = (keyword: string): string => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const FAILURE_LOCKED = sql<number>`(case when exists (select 1 from login_failures lf where lf.key = 'acct:' || u.username_key and lf.locked = 1) then 1 else 0 end)`;

/** The filter's conditions on `users as u` beyond tenant and liveness (the group is a join or an exists). */
function conditions(tenantId: string, filter: PeopleFilter): Array<Expression<SqlBool>> {
  const out: Array<Expression<SqlBool>> = [];
  const dept = filter.department;
  if (dept && !dept.withSub) out.push(sql<SqlBool>`u.department_id = ${dept.id}`);
  if (dept?.withSub) {
    out.push(
      sql<SqlBool>`u.department_id in (with recursive sub(id) as (
        select id from departments where id = ${dept.id} and tenant_id = ${tenantId}
        union all
        select d.id from departments d join sub on d.parent_id = sub.id
      ) select id from sub)`,
    );
  }
  if (filter.role) out.push(sql<SqlBool>`u.role = ${filter.role}`);
  const locked = sql<SqlBool>`(u.locked = 1 or ${FAILURE_LOCKED} = 1)`;
  if (filter.state === 'locked') out.push(locked);
  if (filter.state === 'mustChange') out.push(sql<SqlBool>`u.must_change_password = 1`, sql<SqlBool>`not ${locked}`);
  if (filter.state === 'active') out.push(sql<SqlBool>`u.must_change_password = 0`, sql<SqlBool>`not ${locked}`);
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const pattern = likePattern(keyword);
    out.push(sql<SqlBool>`(u.username_key like ${pattern} escape '\\' or lower(u.nick_name) like ${pattern} escape '\\' or u.phone like ${pattern} escape '\\')`);
  }
  return out;
}

/**
 * People lists of a tenant in keyset pages ordered by account key (unique among a tenant's live
 * accounts, so it is the whole cursor). Each page is one walk of users_tenant_account (or of
 * users_department for one department) that stops after `limit` matches; no OFFSET, no sort step.
 */
export class OrgUserRepository {
  constructor(private readonly db: Db) {}

  async page(tenantId: string, filter: PeopleFilter, afterKey: string | null, limit: number): Promise<PersonRow[]> {
    let q = this.db
      .selectFrom('users as u')
      .selectAll('u')
      .select(FAILURE_LOCKED.as('failure_locked'))
      .where('u.tenant_id', '=', tenantId)
      .where('u.deleted_at', 'is', null);
    if (filter.groupId) {
      q = q.innerJoin('space_members as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.space_id', '=', filter.groupId!)).select('m.role as group_role');
    } else {
      q = q.select(sql<null>`null`.as('group_role'));
    }
    for (const condition of conditions(tenantId, filter)) q = q.where(condition);
    if (afterKey !== null) q = q.where('u.username_key', '>', afterKey);
    const rows = await q.orderBy('u.username_key').limit(limit).execute();
    return rows as unknown as PersonRow[];
  }

  /** How many live accounts match the filter (用户管理's 共 N 人: asked with the first page only). */
  async count(tenantId: string, filter: PeopleFilter): Promise<number> {
    let q = this.db.selectFrom('users as u').select(sql<number | string>`count(*)`.as('n')).where('u.tenant_id', '=', tenantId).where('u.deleted_at', 'is', null);
    if (filter.groupId) q = q.where(sql<SqlBool>`exists (select 1 from space_members m where m.user_id = u.id and m.space_id = ${filter.groupId})`);
    for (const condition of conditions(tenantId, filter)) q = q.where(condition);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** One live account of the tenant as a list row (with its lock by failures), or undefined. */
  async person(tenantId: string, id: string): Promise<PersonRow | undefined> {
    const row = await this.db
      .selectFrom('users as u')
      .selectAll('u')
      .select(FAILURE_LOCKED.as('failure_locked'))
      .select(sql<null>`null`.as('group_role'))
      .where('u.id', '=', id)
      .where('u.tenant_id', '=', tenantId)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    return row as PersonRow | undefined;
  }

  async setDepartment(tenantId: string, ids: string[], departmentId: string): Promise<number> {
    const r = await this.db
      .updateTable('users')
      .set({ department_id: departmentId })
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /** Live accounts of the tenant among these ids. */
  async inTenant(tenantId: string, ids: string[]): Promise<UsersTable[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).where('id', 'in', ids).execute();
  }
}
