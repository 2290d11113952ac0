import { sql, type Kysely, type Transaction } from 'kysely';
import { ALL_DEPARTMENTS, statsDayOf } from '../../common/api/reports';
import type { Db } from '../db/database';
import type { Database } from '../db/schema';
import { DeltaSum, type CountedRow, type UsageDelta } from '../services/reports/usage-deltas';

/** Rows per multi-row upsert (7 columns: well below both engines' parameter limits). */
const UPSERT_ROWS = 200;

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Adds deltas to usage_daily. A key appears once per statement (DeltaSum adds them up first: a
 * PostgreSQL upsert may not touch one row twice), and keys come sorted, so two writers take the
 * row locks in the same order.
 */
export async function addUsage(db: Executor, deltas: readonly UsageDelta[]): Promise<void> {
  for (let i = 0; i < deltas.length; i += UPSERT_ROWS) {
    const values = deltas.slice(i, i + UPSERT_ROWS).map((d) => ({ tenant_id: d.tenantId, day: d.day, metric: d.metric, dept_id: d.deptId, dim: d.dim, count: d.count, bytes: d.bytes }));
    await db
      .insertInto('usage_daily')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'metric', 'dept_id', 'day', 'dim']).doUpdateSet((eb) => ({
          count: eb('usage_daily.count', '+', eb.ref('excluded.count')),
          bytes: eb('usage_daily.bytes', '+', eb.ref('excluded.bytes')),
        })),
      )
      .execute();
  }
}

/**
 * The people of these rows whose first action of the day this is: their active_day moves to the
 * day (one UPDATE … RETURNING per day of the batch), and each counts once in that day's `active`.
 */
async function touchActive(db: Executor, rows: readonly CountedRow[], sum: DeltaSum): Promise<void> {
  const byDay = new Map<number, Set<string>>();
  for (const r of rows) {
    if (r.tenant_id === '' || !r.actor_id) continue;
    const day = statsDayOf(Number(r.at));
    const ids = byDay.get(day) ?? new Set<string>();
    ids.add(r.actor_id);
    byDay.set(day, ids);
  }
  for (const [day, ids] of byDay) {
    const list = [...ids].sort();
    for (let i = 0; i < list.length; i += 500) {
      const first = await db
        .updateTable('users')
        .set({ active_day: day })
        .where('id', 'in', list.slice(i, i + 500))
        .where((eb) => eb.or([eb('active_day', 'is', null), eb('active_day', '<', day)]))
        .returning(['tenant_id', 'department_id'])
        .execute();
      for (const u of first) sum.add({ tenantId: u.tenant_id, day, metric: 'active', deptId: u.department_id ?? '', dim: '', count: 1, bytes: 0 });
    }
  }
}

/** What a batch of recorded actions adds to the aggregates, in the transaction that records them. */
export async function countActions(tx: Executor, rows: readonly CountedRow[]): Promise<void> {
  const sum = new DeltaSum();
  for (const row of rows) sum.addRow(row);
  await touchActive(tx, rows, sum);
  if (sum.size > 0) await addUsage(tx, sum.sorted());
}

/** The storage snapshots: each department's used bytes and people now, as the day's `storage` rows. */
export class UsageStatsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes the snapshot of one tenant (or of every tenant), overwriting the day's earlier one. Every
   * department gets its row, an emptied one a zero (so no figure of earlier in the day stays behind).
   */
  async snapshotStorage(tenantId: string | null, now = Date.now()): Promise<void> {
    const day = statsDayOf(now);
    let people = this.db
      .selectFrom('users')
      .select(['tenant_id', 'department_id', sumOf('used_size').as('used')])
      .select((eb) => eb.fn.countAll<number>().as('people'))
      .where('deleted_at', 'is', null)
      .groupBy(['tenant_id', 'department_id']);
    let departments = this.db.selectFrom('departments').select(['tenant_id', 'id']);
    if (tenantId !== null) {
      people = people.where('tenant_id', '=', tenantId);
      departments = departments.where('tenant_id', '=', tenantId);
    }
    const figures = new Map<string, { tenant_id: string; dept_id: string; used: number; people: number }>();
    for (const d of await departments.execute()) figures.set(`${d.tenant_id}\u0000${d.id}`, { tenant_id: d.tenant_id, dept_id: d.id, used: 0, people: 0 });
    const totals = new Map<string, { used: number; people: number }>();
    for (const r of await people.execute()) {
      const dept = r.department_id ?? '';
      figures.set(`${r.tenant_id}\u0000${dept}`, { tenant_id: r.tenant_id, dept_id: dept, used: Number(r.used), people: Number(r.people) });
      const t = totals.get(r.tenant_id) ?? { used: 0, people: 0 };
      t.used += Number(r.used);
      t.people += Number(r.people);
      totals.set(r.tenant_id, t);
    }
    for (const [tenant, t] of totals) figures.set(`${tenant}\u0000${ALL_DEPARTMENTS}`, { tenant_id: tenant, dept_id: ALL_DEPARTMENTS, ...t });
    const values = [...figures.values()].map((f) => ({ tenant_id: f.tenant_id, day, metric: 'storage', dept_id: f.dept_id, dim: '', count: f.people, bytes: f.used }));
    await this.db.transaction().execute(async (tx) => {
      for (let i = 0; i < values.length; i += UPSERT_ROWS) {
        await tx
          .insertInto('usage_daily')
          .values(values.slice(i, i + UPSERT_ROWS))
          .onConflict((oc) => oc.columns(['tenant_id', 'metric', 'dept_id', 'day', 'dim']).doUpdateSet((eb) => ({ count: eb.ref('excluded.count'), bytes: eb.ref('excluded.bytes') })))
          .execute();
      }
    });
  }
}

/** `sum(x)` as a number on both engines (PostgreSQL's sum of bigint is numeric, sent as text). */
export const sumOf = (column: string) => sql<number>`coalesce(sum(${sql.ref(column)}), 0)`;
