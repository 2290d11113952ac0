import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/database';
import type { SystemNoticesTable, SystemNoticeTargetsTable } from '../db/schema';

/** The platform's notices (for every tenant) are kept under this tenant id. */
export const PLATFORM_NOTICE_TENANT = '';

/** Who is reading: the audience rules are matched against these at read time. */
export interface ReaderScope {
  tenantId: string;
  userId: string;
  /** The reader's department and every department above it. */
  departmentIds: readonly string[];
}

export interface NoticeRow extends SystemNoticesTable {
  /** Reader queries: 1 when the reader has read it. */
  is_read?: number;
}

export interface FeedKey {
  pinned: number;
  at: number;
  id: string;
}

export interface ManageKey {
  at: number;
  id: string;
}

const likePattern = (keyword: string): string => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Published, shown by now, of the reader's tenant or the platform, and addressed to the reader. */
function visibleTo(scope: ReaderScope, now: number): RawBuilder<SqlBool> {
  const depts = scope.departmentIds.length > 0
    ? sql`or (t.kind = 'dept' and t.target_id in (${sql.join([...scope.departmentIds])}))`
    : sql``;
  return sql<SqlBool>`(n.state = 'published' and n.publish_at <= ${now} and n.tenant_id in (${scope.tenantId}, ${PLATFORM_NOTICE_TENANT})
    and (n.audience_all = 1 or exists (select 1 from system_notice_targets t where t.notice_id = n.id
      and ((t.kind = 'user' and t.target_id = ${scope.userId}) ${depts}))))`;
}

/**
 * The live accounts of `tenantId` a notice is addressed to: its rules matched from the people's side
 * (visibleTo matches them from the reader's): everyone, the people named, and everyone in a named
 * department or below it.
 */
function inAudience(tenantId: string, notice: Pick<SystemNoticesTable, 'id' | 'audience_all'>): RawBuilder<SqlBool> {
  const live = sql<SqlBool>`u.tenant_id = ${tenantId} and u.deleted_at is null`;
  if (notice.audience_all === 1) return sql<SqlBool>`(${live})`;
  return sql<SqlBool>`(${live} and (
    exists (select 1 from system_notice_targets t where t.notice_id = ${notice.id} and t.kind = 'user' and t.target_id = u.id)
    or u.department_id in (with recursive sub(id) as (
      select t.target_id from system_notice_targets t where t.notice_id = ${notice.id} and t.kind = 'dept'
      union
      select d.id from departments d join sub on d.parent_id = sub.id
    ) select id from sub)))`;
}

/** One person of a notice's audience, with when they read it (null: not yet). */
export interface AudienceMember {
  id: string;
  username: string;
  username_key: string;
  nick_name: string;
  department_id: string | null;
  read_at: number | string | null;
}

const readBy = (userId: string) =>
  sql<SqlBool>`exists (select 1 from system_notice_reads r where r.user_id = ${userId} and r.notice_id = n.id and r.read_at is not null)`;

/**
 * System notices: one row per notice and its audience rules; per reader only the markers of what
 * they read or were shown. Nothing here writes a row per member of an audience.
 */
export class SystemNoticeRepository {
  constructor(private readonly db: Db) {}

  /** The reader's department and its ancestors (at most 20 levels: one short recursive walk). */
  async departmentChain(tenantId: string, userId: string): Promise<string[]> {
    const rows = await sql<{ id: string }>`with recursive up(id, parent_id) as (
        select d.id, d.parent_id from departments d join users u on u.department_id = d.id
        where u.id = ${userId} and u.tenant_id = ${tenantId} and d.tenant_id = ${tenantId}
        union all
        select d.id, d.parent_id from departments d join up on d.id = up.parent_id
      ) select id from up`.execute(this.db);
    return rows.rows.map((r) => r.id);
  }

  // ---- readers -----------------------------------------------------------------------------------

  async feed(scope: ReaderScope, filter: { read?: boolean; keyword?: string }, after: FeedKey | null, limit: number, now: number): Promise<NoticeRow[]> {
    let q = this.db
      .selectFrom('system_notices as n')
      .selectAll('n')
      .select(sql<number>`case when ${readBy(scope.userId)} then 1 else 0 end`.as('is_read'))
      .where(visibleTo(scope, now));
    if (filter.read === true) q = q.where(readBy(scope.userId));
    if (filter.read === false) q = q.where(sql<SqlBool>`not ${readBy(scope.userId)}`);
    const keyword = filter.keyword?.trim();
    if (keyword) {
      const pattern = likePattern(keyword);
      q = q.where(sql<SqlBool>`(lower(n.title) like ${pattern} escape '\\' or lower(n.summary) like ${pattern} escape '\\')`);
    }
    if (after) {
      q = q.where(
        sql<SqlBool>`(n.pinned < ${after.pinned} or (n.pinned = ${after.pinned} and (n.publish_at < ${after.at} or (n.publish_at = ${after.at} and n.id < ${after.id}))))`,
      );
    }
    return q.orderBy('n.pinned', 'desc').orderBy('n.publish_at', 'desc').orderBy('n.id', 'desc').limit(limit).execute() as Promise<NoticeRow[]>;
  }

  async findForReader(scope: ReaderScope, id: string, now: number): Promise<NoticeRow | undefined> {
    return (await this.db
      .selectFrom('system_notices as n')
      .selectAll('n')
      .select(sql<number>`case when ${readBy(scope.userId)} then 1 else 0 end`.as('is_read'))
      .where('n.id', '=', id)
      .where(visibleTo(scope, now))
      .executeTakeFirst()) as NoticeRow | undefined;
  }

  /** Unread notices of the tenant and of the platform addressed to the reader. */
  async unreadCounts(scope: ReaderScope, now: number): Promise<{ tenantNotices: number; platformNotices: number }> {
    const rows = await this.db
      .selectFrom('system_notices as n')
      .select('n.tenant_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(visibleTo(scope, now))
      .where(sql<SqlBool>`not ${readBy(scope.userId)}`)
      // By the column, not by an expression with a bound value: PostgreSQL cannot tell that the
      // select's and the group's parameters are the same value.
      .groupBy('n.tenant_id')
      .execute();
    let tenantNotices = 0;
    let platformNotices = 0;
    for (const r of rows) {
      if (r.tenant_id === PLATFORM_NOTICE_TENANT) platformNotices += Number(r.n);
      else tenantNotices += Number(r.n);
    }
    return { tenantNotices, platformNotices };
  }

  /** Of these ids, the ones the reader may see now. */
  async visibleIds(scope: ReaderScope, ids: readonly string[], now: number): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('system_notices as n').select('n.id').where('n.id', 'in', [...ids]).where(visibleTo(scope, now)).execute();
    return rows.map((r) => r.id);
  }

  async markRead(userId: string, ids: readonly string[], now: number, popped = false): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .insertInto('system_notice_reads')
      .values(ids.map((id) => ({ user_id: userId, notice_id: id, read_at: now, popped_at: popped ? now : null })))
      .onConflict((oc) =>
        oc.columns(['user_id', 'notice_id']).doUpdateSet({
          read_at: sql`coalesce(system_notice_reads.read_at, ${now})`,
          popped_at: popped ? sql`coalesce(system_notice_reads.popped_at, ${now})` : sql`system_notice_reads.popped_at`,
        }),
      )
      .execute();
  }

  /** Every notice the reader may see and has not read, read now (one statement). */
  async markAllRead(scope: ReaderScope, now: number): Promise<number> {
    const r = await sql`insert into system_notice_reads (user_id, notice_id, read_at, popped_at)
      select ${scope.userId}, n.id, ${now}, null from system_notices n where ${visibleTo(scope, now)} and not ${readBy(scope.userId)}
      on conflict (user_id, notice_id) do update set read_at = ${now}`.execute(this.db);
    return Number(r.numAffectedRows ?? 0);
  }

  /** Important notices for the reader never shown to them and not read yet (the login pop-up). */
  async unpopped(scope: ReaderScope, now: number, limit: number): Promise<NoticeRow[]> {
    return (await this.db
      .selectFrom('system_notices as n')
      .selectAll('n')
      .select(sql<number>`0`.as('is_read'))
      .where(visibleTo(scope, now))
      .where('n.important', '=', 1)
      .where(sql<SqlBool>`not exists (select 1 from system_notice_reads r where r.user_id = ${scope.userId} and r.notice_id = n.id
        and (r.read_at is not null or r.popped_at is not null))`)
      .orderBy('n.publish_at', 'desc')
      .limit(limit)
      .execute()) as NoticeRow[];
  }

  // ---- authors ----------------------------------------------------------------------------------

  async find(tenantId: string, id: string): Promise<SystemNoticesTable | undefined> {
    return this.db.selectFrom('system_notices').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  async manageList(tenantIds: readonly string[], filter: { state?: string; keyword?: string }, after: ManageKey | null, limit: number, now: number): Promise<SystemNoticesTable[]> {
    let q = this.db.selectFrom('system_notices as n').selectAll('n').where('n.tenant_id', 'in', [...tenantIds]);
    if (filter.state === 'draft' || filter.state === 'withdrawn') q = q.where('n.state', '=', filter.state);
    if (filter.state === 'published') q = q.where('n.state', '=', 'published').where('n.publish_at', '<=', now);
    if (filter.state === 'scheduled') q = q.where('n.state', '=', 'published').where('n.publish_at', '>', now);
    const keyword = filter.keyword?.trim();
    if (keyword) q = q.where(sql<SqlBool>`(lower(n.title) like ${likePattern(keyword)} escape '\\' or lower(n.summary) like ${likePattern(keyword)} escape '\\')`);
    if (after) q = q.where((eb) => eb.or([eb('n.updated_at', '<', after.at), eb.and([eb('n.updated_at', '=', after.at), eb('n.id', '<', after.id)])]));
    return q.orderBy('n.updated_at', 'desc').orderBy('n.id', 'desc').limit(limit).execute();
  }

  async targets(noticeIds: readonly string[]): Promise<SystemNoticeTargetsTable[]> {
    if (noticeIds.length === 0) return [];
    return this.db.selectFrom('system_notice_targets').selectAll().where('notice_id', 'in', [...noticeIds]).execute();
  }

  /** How many people of `tenantId` the notice is addressed to, and how many of them have read it. */
  async audienceStats(tenantId: string, notice: Pick<SystemNoticesTable, 'id' | 'audience_all'>): Promise<{ size: number; read: number }> {
    const row = await this.db
      .selectFrom('users as u')
      .leftJoin('system_notice_reads as r', (j) => j.onRef('r.user_id', '=', 'u.id').on('r.notice_id', '=', notice.id))
      .select([sql<number | string>`count(*)`.as('size'), sql<number | string>`count(r.read_at)`.as('read')])
      .where(inAudience(tenantId, notice))
      .executeTakeFirstOrThrow();
    return { size: Number(row.size), read: Number(row.read) };
  }

  /** The notice's audience in `tenantId`, by account key (keyset), all or only who has (not) read it. */
  async audiencePage(tenantId: string, notice: Pick<SystemNoticesTable, 'id' | 'audience_all'>, read: boolean | undefined, afterKey: string | null, limit: number): Promise<AudienceMember[]> {
    let q = this.db
      .selectFrom('users as u')
      .leftJoin('system_notice_reads as r', (j) => j.onRef('r.user_id', '=', 'u.id').on('r.notice_id', '=', notice.id))
      .select(['u.id', 'u.username', 'u.username_key', 'u.nick_name', 'u.department_id', 'r.read_at'])
      .where(inAudience(tenantId, notice));
    if (read === true) q = q.where('r.read_at', 'is not', null);
    if (read === false) q = q.where('r.read_at', 'is', null);
    if (afterKey !== null) q = q.where('u.username_key', '>', afterKey);
    return (await q.orderBy('u.username_key').limit(limit).execute()) as AudienceMember[];
  }

  /** Writes the notice and replaces its audience (one transaction). */
  async save(row: SystemNoticesTable, targets: readonly Omit<SystemNoticeTargetsTable, 'notice_id'>[], isNew: boolean): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      if (isNew) await tx.insertInto('system_notices').values(row).execute();
      else await tx.updateTable('system_notices').set(row).where('id', '=', row.id).where('tenant_id', '=', row.tenant_id).execute();
      await tx.deleteFrom('system_notice_targets').where('notice_id', '=', row.id).execute();
      const rows = targets.map((t) => ({ ...t, notice_id: row.id }));
      for (let i = 0; i < rows.length; i += 1000) await tx.insertInto('system_notice_targets').values(rows.slice(i, i + 1000)).execute();
    });
  }

  async update(tenantId: string, id: string, patch: Partial<SystemNoticesTable>): Promise<void> {
    await this.db.updateTable('system_notices').set(patch).where('id', '=', id).where('tenant_id', '=', tenantId).execute();
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const gone = await tx.deleteFrom('system_notices').where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) return;
      await tx.deleteFrom('system_notice_targets').where('notice_id', '=', id).execute();
      await tx.deleteFrom('system_notice_reads').where('notice_id', '=', id).execute();
    });
  }

  /**
   * The next scheduled notice to come out after `since` (the scheduler wakes for it). Scheduled means
   * saved for a later time (`publish_at > updated_at`); one published at once was announced by its save.
   */
  async nextScheduled(since: number): Promise<{ id: string; tenant_id: string; publish_at: number } | undefined> {
    const row = await this.db
      .selectFrom('system_notices')
      .select(['id', 'tenant_id', 'publish_at'])
      .where('state', '=', 'published')
      .where('publish_at', '>', since)
      .whereRef('publish_at', '>', 'updated_at')
      .orderBy('publish_at')
      .limit(1)
      .executeTakeFirst();
    return row && row.publish_at !== null ? { id: row.id, tenant_id: row.tenant_id, publish_at: Number(row.publish_at) } : undefined;
  }

  /** Notices whose scheduled time came in (from, to]: the scheduler announces them. */
  async cameOut(from: number, to: number): Promise<SystemNoticesTable[]> {
    return this.db
      .selectFrom('system_notices')
      .selectAll()
      .where('state', '=', 'published')
      .where('publish_at', '>', from)
      .where('publish_at', '<=', to)
      .whereRef('publish_at', '>', 'updated_at')
      .execute();
  }

  /** Departments and users of a tenant among these ids (audience check), with their names. */
  async audienceNames(tenantId: string, departmentIds: readonly string[], userIds: readonly string[]): Promise<{ departments: Map<string, string>; users: Map<string, string> }> {
    const departments = departmentIds.length
      ? await this.db.selectFrom('departments').select(['id', 'name']).where('tenant_id', '=', tenantId).where('id', 'in', [...departmentIds]).execute()
      : [];
    const users = userIds.length
      ? await this.db.selectFrom('users').select(['id', 'nick_name', 'username']).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null).where('id', 'in', [...userIds]).execute()
      : [];
    return {
      departments: new Map(departments.map((d) => [d.id, d.name])),
      users: new Map(users.map((u) => [u.id, u.nick_name ? `${u.nick_name}（${u.username}）` : u.username])),
    };
  }
}
