import { sql } from 'kysely';
import { UNASSIGNED_DEPARTMENT_NAME } from '../../common/api/org-types';
import { isUniqueViolation, type Db } from '../db/database';
import type { DepartmentsTable } from '../db/schema';
import { newId } from '../ids';

type Tx = Parameters<Parameters<ReturnType<Db['transaction']>['execute']>[0]>[0];
type Conn = Db | Tx;

export interface DepartmentRow extends Pick<DepartmentsTable, 'id' | 'parent_id' | 'name' | 'sort_order' | 'manager_id' | 'kind'> {
  manager_name: string | null;
  member_count: number;
}

/** What a structural change inside `inTree` may read and write (one transaction). */
export interface TreeTx {
  find(id: string): Promise<DepartmentsTable | undefined>;
  /** Ids from `id` up to its top-level ancestor, `id` first. */
  ancestors(id: string): Promise<string[]>;
  /** Levels of the subtree under `id` (1 = no children). */
  subtreeHeight(id: string): Promise<number>;
  siblings(tenantId: string, parentId: string | null): Promise<DepartmentsTable[]>;
  insert(row: DepartmentsTable): Promise<void>;
  update(id: string, patch: Partial<Pick<DepartmentsTable, 'parent_id' | 'name' | 'name_key' | 'sort_order' | 'manager_id' | 'updated_at'>>): Promise<void>;
  delete(id: string): Promise<void>;
  childCount(id: string): Promise<number>;
  memberCount(id: string): Promise<number>;
  count(tenantId: string): Promise<number>;
}

/**
 * The department tree (adjacency list). Structural changes run in `inTree`, a transaction that
 * first writes the tenant's 未分配 row: on PostgreSQL that row lock serialises every structural change
 * of one tenant (two moves cannot each pass the cycle check against the state before the other); on
 * SQLite, writes are serialised anyway.
 */
export class DepartmentRepository {
  constructor(private readonly db: Db) {}

  /**
   * The tenant's 未分配 department, created on first use (a tenant made after the migration), and
   * every live account without a department put into it.
   */
  async ensureUnassigned(tenantId: string, now = Date.now()): Promise<string> {
    let row = await this.db.selectFrom('departments').select('id').where('tenant_id', '=', tenantId).where('kind', '=', 'unassigned').executeTakeFirst();
    if (!row) {
      const id = newId();
      try {
        await this.db
          .insertInto('departments')
          .values({ id, tenant_id: tenantId, parent_id: null, name: UNASSIGNED_DEPARTMENT_NAME, name_key: UNASSIGNED_DEPARTMENT_NAME, sort_order: 1_000_000, manager_id: null, kind: 'unassigned', created_at: now, updated_at: now })
          .execute();
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      row = await this.db.selectFrom('departments').select('id').where('tenant_id', '=', tenantId).where('kind', '=', 'unassigned').executeTakeFirstOrThrow();
    }
    // Accounts written without a department (a test helper's direct insert): read by the partial index.
    const orphan = await this.db
      .selectFrom('users')
      .select('id')
      .where('department_id', 'is', null)
      .where('deleted_at', 'is', null)
      .where('tenant_id', '=', tenantId)
      .limit(1)
      .executeTakeFirst();
    if (orphan) await this.db.updateTable('users').set({ department_id: row.id }).where('tenant_id', '=', tenantId).where('department_id', 'is', null).execute();
    return row.id;
  }

  find(tenantId: string, id: string): Promise<DepartmentsTable | undefined> {
    return this.db.selectFrom('departments').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  /**
   * The whole tree of a tenant with manager names and direct member counts: one walk of the tenant's
   * departments (only the columns drawn), one of users_tenant_department for the counts (no row reads),
   * and the few managers' names by id.
   */
  async tree(tenantId: string): Promise<DepartmentRow[]> {
    const rows = await this.db
      .selectFrom('departments')
      .select(['id', 'parent_id', 'name', 'sort_order', 'manager_id', 'kind'])
      .where('tenant_id', '=', tenantId)
      .orderBy('sort_order')
      .orderBy('id')
      .execute();
    const counts = await this.db
      .selectFrom('users')
      .select(['department_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .groupBy('department_id')
      .execute();
    const byDept = new Map(counts.map((c) => [c.department_id, Number(c.n)]));
    const managerIds = [...new Set(rows.map((r) => r.manager_id).filter((m): m is string => m !== null))];
    const names = new Map<string, string>();
    for (let i = 0; i < managerIds.length; i += 500) {
      const found = await this.db
        .selectFrom('users')
        .select(['id', 'nick_name'])
        .where('id', 'in', managerIds.slice(i, i + 500))
        .where('tenant_id', '=', tenantId)
        .where('deleted_at', 'is', null)
        .execute();
      for (const f of found) names.set(f.id, f.nick_name);
    }
    return rows.map((r) => ({ ...r, manager_name: r.manager_id ? (names.get(r.manager_id) ?? null) : null, member_count: byDept.get(r.id) ?? 0 }));
  }

  /** Ids of the department and all its descendants (recursive CTE; the tenant check is on the start). */
  async subtreeIds(tenantId: string, id: string): Promise<string[]> {
    const rows = await sql<{ id: string }>`with recursive sub(id) as (
        select id from departments where id = ${id} and tenant_id = ${tenantId}
        union all
        select d.id from departments d join sub on d.parent_id = sub.id
      ) select id from sub`.execute(this.db);
    return rows.rows.map((r) => r.id);
  }

  /** Looks departments up by their path of names (`研发部/前端组`, case-insensitive), for the import. */
  async all(tenantId: string): Promise<DepartmentsTable[]> {
    return this.db.selectFrom('departments').selectAll().where('tenant_id', '=', tenantId).execute();
  }

  async setPhoneMask(tenantId: string, rule: string): Promise<void> {
    await this.db
      .insertInto('tenant_settings')
      .values({ tenant_id: tenantId, blocked_extensions: null, sensitive_keywords: null, phone_mask: rule })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ phone_mask: rule }))
      .execute();
  }

  async phoneMask(tenantId: string): Promise<string | null> {
    const row = await this.db.selectFrom('tenant_settings').select('phone_mask').where('tenant_id', '=', tenantId).executeTakeFirst();
    return row?.phone_mask ?? null;
  }

  /** Runs a structural change of the tenant's tree in one transaction holding the tree's lock row. */
  async inTree<T>(tenantId: string, work: (t: TreeTx) => Promise<T>): Promise<T> {
    const unassignedId = await this.ensureUnassigned(tenantId);
    return this.db.transaction().execute(async (tx) => {
      await tx.updateTable('departments').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', unassignedId).execute();
      return work(treeTx(tx));
    });
  }
}

function treeTx(tx: Conn): TreeTx {
  return {
    find: (id) => tx.selectFrom('departments').selectAll().where('id', '=', id).executeTakeFirst(),
    async ancestors(id) {
      const rows = await sql<{ id: string; depth: number }>`with recursive up(id, parent_id, depth) as (
          select id, parent_id, 0 from departments where id = ${id}
          union all
          select d.id, d.parent_id, up.depth + 1 from departments d join up on d.id = up.parent_id where up.depth < 1000
        ) select id, depth from up order by depth`.execute(tx);
      return rows.rows.map((r) => r.id);
    },
    async subtreeHeight(id) {
      const row = await sql<{ h: number }>`with recursive sub(id, depth) as (
          select id, 1 from departments where id = ${id}
          union all
          select d.id, sub.depth + 1 from departments d join sub on d.parent_id = sub.id where sub.depth < 1000
        ) select max(depth) as h from sub`.execute(tx);
      return Number(row.rows[0]?.h ?? 1);
    },
    siblings(tenantId, parentId) {
      let q = tx.selectFrom('departments').selectAll().where('tenant_id', '=', tenantId);
      q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
      return q.orderBy('sort_order').orderBy('id').execute();
    },
    async insert(row) {
      await tx.insertInto('departments').values(row).execute();
    },
    async update(id, patch) {
      await tx.updateTable('departments').set(patch).where('id', '=', id).execute();
    },
    async delete(id) {
      await tx.deleteFrom('departments').where('id', '=', id).execute();
    },
    async childCount(id) {
      const r = await tx.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).where('parent_id', '=', id).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async memberCount(id) {
      const r = await tx.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).where('department_id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
    async count(tenantId) {
      const r = await tx.selectFrom('departments').select((eb) => eb.fn.countAll<number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
      return Number(r?.n ?? 0);
    },
  };
}
