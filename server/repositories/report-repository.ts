import { sql } from 'kysely';
import { ALL_DEPARTMENTS, type UsageMetric } from '../../common/api/reports';
import type { Db } from '../db/database';
import { sumOf } from './usage-stats-repository';

/** Which departments a read covers: null = the whole tenant (the ALL_DEPARTMENTS rows). */
export type DeptScope = readonly string[] | null;

export interface DaySum {
  day: number;
  count: number;
  bytes: number;
}

export interface DimSum {
  dim: string;
  count: number;
  bytes: number;
}

export interface UserStorageRow {
  id: string;
  username: string;
  nick_name: string;
  department_id: string | null;
  used_size: number;
  quota: number;
}

/** Departments per IN list (well below both engines' parameter limits). */
const IN_CHUNK = 1000;

/**
 * The reads of 工作台 and 统计报表: usage_daily by its primary key (tenant, metric, day, …), and
 * counts that partial indexes answer. No read walks the action log or the file tree, except the
 * failed sign-ins of the last 24 hours (an index range of one action over one day).
 */
export class ReportRepository {
  constructor(private readonly db: Db) {}

  private usage(tenantId: string, metric: UsageMetric, fromDay: number, toDay: number, depts: readonly string[] | null) {
    let q = this.db.selectFrom('usage_daily').where('tenant_id', '=', tenantId).where('metric', '=', metric).where('day', '>=', fromDay).where('day', '<=', toDay);
    q = depts === null ? q.where('dept_id', '=', ALL_DEPARTMENTS) : q.where('dept_id', 'in', depts);
    return q;
  }

  private async chunked<T>(scope: DeptScope, read: (depts: readonly string[] | null) => Promise<T[]>): Promise<T[]> {
    if (scope === null) return read(null);
    if (scope.length === 0) return [];
    const out: T[] = [];
    for (let i = 0; i < scope.length; i += IN_CHUNK) out.push(...(await read(scope.slice(i, i + IN_CHUNK))));
    return out;
  }

  /** A metric per day (days without rows absent). */
  async byDay(tenantId: string, metric: UsageMetric, fromDay: number, toDay: number, scope: DeptScope): Promise<DaySum[]> {
    const parts = await this.chunked(scope, (depts) =>
      this.usage(tenantId, metric, fromDay, toDay, depts)
        .select(['day', sumOf('count').as('count'), sumOf('bytes').as('bytes')])
        .groupBy('day')
        .execute(),
    );
    return merge(parts.map((r) => ({ key: Number(r.day), count: r.count, bytes: r.bytes }))).map(({ key, count, bytes }) => ({ day: key, count, bytes }));
  }

  /** A metric per dimension over the range. */
  async byDim(tenantId: string, metric: UsageMetric, fromDay: number, toDay: number, scope: DeptScope): Promise<DimSum[]> {
    const parts = await this.chunked(scope, (depts) =>
      this.usage(tenantId, metric, fromDay, toDay, depts)
        .select(['dim', sumOf('count').as('count'), sumOf('bytes').as('bytes')])
        .groupBy('dim')
        .execute(),
    );
    return merge(parts.map((r) => ({ key: r.dim, count: r.count, bytes: r.bytes }))).map(({ key, count, bytes }) => ({ dim: key, count, bytes }));
  }

  /** A metric per day and dimension. */
  async byDayDim(tenantId: string, metric: UsageMetric, fromDay: number, toDay: number, scope: DeptScope): Promise<Array<DaySum & { dim: string }>> {
    const parts = await this.chunked(scope, (depts) =>
      this.usage(tenantId, metric, fromDay, toDay, depts)
        .select(['day', 'dim', sumOf('count').as('count'), sumOf('bytes').as('bytes')])
        .groupBy(['day', 'dim'])
        .execute(),
    );
    return merge(parts.map((r) => ({ key: `${r.day}|${r.dim}`, count: r.count, bytes: r.bytes }))).map(({ key, count, bytes }) => {
      const bar = key.indexOf('|');
      return { day: Number(key.slice(0, bar)), dim: key.slice(bar + 1), count, bytes };
    });
  }

  /** The live people's storage by department (id null: none). */
  async storageByDepartment(tenantId: string): Promise<Array<{ department_id: string | null; used: number; quota: number; people: number }>> {
    const rows = await this.db
      .selectFrom('users')
      .select(['department_id', sumOf('used_size').as('used'), sumOf('quota').as('quota')])
      .select((eb) => eb.fn.countAll<number>().as('people'))
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .groupBy('department_id')
      .execute();
    return rows.map((r) => ({ department_id: r.department_id ?? null, used: Number(r.used), quota: Number(r.quota), people: Number(r.people) }));
  }

  /** The live people of the scope by used bytes, most first (limit null: all of them). */
  async peopleByStorage(tenantId: string, scope: DeptScope, limit: number | null): Promise<UserStorageRow[]> {
    const rows = await this.chunked(scope, (depts) => {
      let q = this.db
        .selectFrom('users')
        .select(['id', 'username', 'nick_name', 'department_id', 'used_size', 'quota'])
        .where('tenant_id', '=', tenantId)
        .where('deleted_at', 'is', null);
      if (depts !== null) q = q.where('department_id', 'in', depts);
      q = q.orderBy('used_size', 'desc').orderBy('id');
      return (limit === null ? q : q.limit(limit)).execute();
    });
    const sorted = rows.map((r) => ({ ...r, department_id: r.department_id ?? null, used_size: Number(r.used_size), quota: Number(r.quota) }));
    sorted.sort((a, b) => b.used_size - a.used_size || (a.id < b.id ? -1 : 1));
    return limit === null ? sorted : sorted.slice(0, limit);
  }

  async departments(tenantId: string): Promise<Array<{ id: string; parent_id: string | null; name: string; sort_order: number }>> {
    return this.db.selectFrom('departments').select(['id', 'parent_id', 'name', 'sort_order']).where('tenant_id', '=', tenantId).execute();
  }

  async userNames(tenantId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < ids.length; i += IN_CHUNK) {
      const rows = await this.db.selectFrom('users').select(['id', 'username', 'nick_name']).where('tenant_id', '=', tenantId).where('id', 'in', ids.slice(i, i + IN_CHUNK)).execute();
      for (const r of rows) out.set(r.id, r.nick_name ? `${r.nick_name}（${r.username}）` : r.username);
    }
    return out;
  }

  /** Live people active on or after a day, and all live people. */
  async activeSince(tenantId: string, days: readonly number[]): Promise<{ since: number[]; people: number }> {
    const cols = days.map((d, i) => sql<number>`coalesce(sum(case when active_day >= ${d} then 1 else 0 end), 0)`.as(`d${i}`));
    const row = await this.db
      .selectFrom('users')
      .select(cols)
      .select((eb) => eb.fn.countAll<number>().as('people'))
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    const r = row as unknown as Record<string, number>;
    return { since: days.map((_, i) => Number(r[`d${i}`])), people: Number(r.people) };
  }

  async lockedAccounts(tenantId: string): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .where('locked', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async pendingApplications(tenantId: string): Promise<number> {
    const row = await this.db
      .selectFrom('share_applications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      // Literal: SQLite uses the partial index applications_approver only when it sees the condition.
      .where(sql<boolean>`state = 'pending'`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Exchange-area files intercepted and not dealt with; of them, those stopped for a sensitive word. */
  async interceptedWaiting(tenantId: string): Promise<{ total: number; sensitive: number }> {
    const row = await this.db
      .selectFrom('exchange_files')
      .select((eb) => [eb.fn.countAll<number>().as('total'), sql<number>`coalesce(sum(case when reason like ${'%敏感词%'} then 1 else 0 end), 0)`.as('sensitive')])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`state = 'intercepted'`)
      .where('processed_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), sensitive: Number(row.sensitive) };
  }

  /** Refused sign-ins recorded in the tenant's log since a time (index action_log_action: one range per action). */
  async failedLoginsSince(tenantId: string, since: number): Promise<number> {
    let total = 0;
    for (const action of ['auth.login', 'auth.smsLogin']) {
      const row = await this.db
        .selectFrom('action_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('action', '=', action)
        .where('at', '>=', since)
        .where('outcome', '=', 'refused')
        .executeTakeFirstOrThrow();
      total += Number(row.n);
    }
    return total;
  }

  /** The tenant's live sessions of the desktop client (their User-Agent names Electron). */
  async desktopSessions(tenantId: string, now: number): Promise<Array<{ user_id: string; network_env: string; user_agent: string }>> {
    const rows = await this.db
      .selectFrom('sessions')
      .select(['user_id', 'network_env', 'user_agent'])
      .where('tenant_id', '=', tenantId)
      .where('expires_at', '>', now)
      .where('ended_reason', 'is', null)
      .where('user_agent', 'like', '%Electron/%')
      .execute();
    return rows.map((r) => ({ user_id: r.user_id, network_env: r.network_env ?? '', user_agent: r.user_agent ?? '' }));
  }
}

/** Adds up parts read in chunks (the same key may come from several). */
function merge<K>(parts: Array<{ key: K; count: number; bytes: number }>): Array<{ key: K; count: number; bytes: number }> {
  const out = new Map<K, { key: K; count: number; bytes: number }>();
  for (const p of parts) {
    const have = out.get(p.key);
    if (have) {
      have.count += Number(p.count);
      have.bytes += Number(p.bytes);
    } else out.set(p.key, { key: p.key, count: Number(p.count), bytes: Number(p.bytes) });
  }
  return [...out.values()];
}
