import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { ShareApplicationsTable, ShareApplicationStepsTable } from '../db/schema';

type Position = { at: number; id: string } | null;

/** Sharing applications and their history. State changes are conditional updates: two deciders never both win. */
export class ApplicationRepository {
  constructor(private readonly db: Db) {}

  async insert(app: ShareApplicationsTable, step: ShareApplicationStepsTable): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('share_applications').values(app).execute();
      await tx.insertInto('share_application_steps').values(step).execute();
    });
  }

  find(tenantId: string, id: string): Promise<ShareApplicationsTable | undefined> {
    return this.db.selectFrom('share_applications').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  findMany(tenantId: string, ids: readonly string[]): Promise<ShareApplicationsTable[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('share_applications').selectAll().where('tenant_id', '=', tenantId).where('id', 'in', [...ids]).execute();
  }

  /**
   * Moves a pending application on, only if it is still pending at `level` with `approverId` (or,
   * for a withdrawal, still the applicant's and pending): false when someone else got there first.
   * The step is written in the same transaction.
   */
  async transition(
    id: string,
    expect: { level?: number; approverId?: string | null; applicantId?: string },
    patch: Partial<ShareApplicationsTable>,
    steps: readonly ShareApplicationStepsTable[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      let q = tx.updateTable('share_applications').set(patch).where('id', '=', id).where('state', '=', 'pending');
      if (expect.level !== undefined) q = q.where('level', '=', expect.level);
      if (expect.approverId !== undefined) q = expect.approverId === null ? q.where('approver_id', 'is', null) : q.where('approver_id', '=', expect.approverId);
      if (expect.applicantId !== undefined) q = q.where('applicant_id', '=', expect.applicantId);
      const res = await q.executeTakeFirst();
      if (Number(res.numUpdatedRows ?? 0) !== 1) return false;
      for (const step of steps) await tx.insertInto('share_application_steps').values(step).execute();
      return true;
    });
  }

  async update(id: string, patch: Partial<ShareApplicationsTable>): Promise<void> {
    await this.db.updateTable('share_applications').set(patch).where('id', '=', id).execute();
  }

  async addSteps(steps: readonly ShareApplicationStepsTable[]): Promise<void> {
    if (steps.length > 0) await this.db.insertInto('share_application_steps').values([...steps]).execute();
  }

  async steps(ids: readonly string[]): Promise<Map<string, ShareApplicationStepsTable[]>> {
    const out = new Map<string, ShareApplicationStepsTable[]>();
    if (ids.length === 0) return out;
    const rows = await this.db.selectFrom('share_application_steps').selectAll().where('application_id', 'in', [...ids]).execute();
    // Steps of one moment (an approval and what it created) in the order they happen.
    const rank: Record<string, number> = { submit: 0, approve: 1, reject: 1, withdraw: 1, expire: 1, created: 2 };
    rows.sort((a, b) => Number(a.at) - Number(b.at) || a.level - b.level || rank[a.kind]! - rank[b.kind]!);
    for (const r of rows) (out.get(r.application_id) ?? out.set(r.application_id, []).get(r.application_id)!).push(r);
    return out;
  }

  /** 我的申请: the applicant's, newest first (applications_applicant). */
  mine(tenantId: string, applicantId: string, after: Position, limit: number): Promise<ShareApplicationsTable[]> {
    return this.mineQuery(tenantId, applicantId, after, limit).execute();
  }

  mineQuery(tenantId: string, applicantId: string, after: Position, limit: number) {
    let q = this.db.selectFrom('share_applications').selectAll().where('tenant_id', '=', tenantId).where('applicant_id', '=', applicantId);
    if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id})`);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  /** 审批, waiting: pending applications the approver must decide, newest first (applications_approver). */
  pendingFor(tenantId: string, approverId: string, after: Position, limit: number): Promise<ShareApplicationsTable[]> {
    return this.pendingForQuery(tenantId, approverId, after, limit).execute();
  }

  pendingForQuery(tenantId: string, approverId: string, after: Position, limit: number) {
    let q = this.db
      .selectFrom('share_applications')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('approver_id', '=', approverId)
      .where(sql<boolean>`state = 'pending'`);
    if (after) q = q.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id})`);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  /** The 审批 badge: applications waiting for the approver and not past their time. */
  async countPendingFor(tenantId: string, approverId: string, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('share_applications')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('tenant_id', '=', tenantId)
      .where('approver_id', '=', approverId)
      .where(sql<boolean>`state = 'pending'`)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** 审批, decided: the approver's decisions (steps), newest first (application_steps_actor). */
  decidedBy(tenantId: string, actorId: string, after: Position, limit: number): Promise<ShareApplicationStepsTable[]> {
    return this.decidedByQuery(tenantId, actorId, after, limit).execute();
  }

  decidedByQuery(tenantId: string, actorId: string, after: Position, limit: number) {
    let q = this.db
      .selectFrom('share_application_steps')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('actor_id', '=', actorId)
      // A literal, not parameters: SQLite uses the partial index only when it can see the condition.
      .where(sql<boolean>`kind in ('approve', 'reject')`);
    if (after) q = q.where(sql<boolean>`(at, id) < (${after.at}, ${after.id})`);
    return q.orderBy('at', 'desc').orderBy('id', 'desc').limit(limit);
  }

  /** Pending applications past their expiry (applications_expiry). */
  due(now: number, limit: number): Promise<ShareApplicationsTable[]> {
    return this.db.selectFrom('share_applications').selectAll().where('state', '=', 'pending').where('expires_at', '<=', now).orderBy('expires_at').limit(limit).execute();
  }
}
