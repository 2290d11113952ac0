import type { Db } from '../db/database';
import type { ContentScanJobsTable } from '../db/schema';

/**
 * The re-scan jobs of migration 0098 (`content_scan_jobs`, one row per tenant: the latest keyword
 * list's). A process works a job while it holds its lease (`lease_owner`, `lease_until`); every write
 * of progress names the job's keyword hash and the lease, so a job replaced by a newer keyword change,
 * or taken over after a lease ran out, is never written by the process that lost it.
 */
export class ContentScanRepository {
  constructor(private readonly db: Db) {}

  /** Starts (or restarts, replacing the tenant's previous job) a re-scan for the keyword list `hash`. */
  async start(tenantId: string, hash: string, total: number, now: number): Promise<void> {
    const row = { tenant_id: tenantId, keywords_hash: hash, total, done: 0, hits: 0, after_doc: 0, started_at: now, finished_at: null, lease_owner: null, lease_until: null };
    const { tenant_id: _tenant, ...rest } = row;
    await this.db
      .insertInto('content_scan_jobs')
      .values(row)
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(rest))
      .execute();
  }

  async get(tenantId: string): Promise<ContentScanJobsTable | null> {
    return (await this.db.selectFrom('content_scan_jobs').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst()) ?? null;
  }

  /**
   * Takes the lease of an unfinished job nobody holds (or whose holder's lease ran out, or this
   * process's own); answers the job, or null when there is none to work.
   */
  async claim(owner: string, leaseMs: number, now: number): Promise<ContentScanJobsTable | null> {
    const candidates = await this.db
      .selectFrom('content_scan_jobs')
      .select('tenant_id')
      .where('finished_at', 'is', null)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
      .orderBy('started_at')
      .limit(5)
      .execute();
    for (const { tenant_id } of candidates) {
      // The same condition again in the update: of two processes, one takes it.
      const res = await this.db
        .updateTable('content_scan_jobs')
        .set({ lease_owner: owner, lease_until: now + leaseMs })
        .where('tenant_id', '=', tenant_id)
        .where('finished_at', 'is', null)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('lease_owner', '=', owner)]))
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) return this.get(tenant_id);
    }
    return null;
  }

  /** Records a batch's progress (and the end, with `finished`); false when this process lost the job. */
  async advance(
    job: Pick<ContentScanJobsTable, 'tenant_id' | 'keywords_hash'>,
    owner: string,
    step: { afterDoc: number; done: number; hits: number; finished: boolean },
    leaseMs: number,
    now: number,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('content_scan_jobs')
      .set((eb) => ({
        after_doc: step.afterDoc,
        done: eb('done', '+', step.done),
        hits: eb('hits', '+', step.hits),
        lease_until: step.finished ? null : now + leaseMs,
        lease_owner: step.finished ? null : owner,
        finished_at: step.finished ? now : null,
      }))
      .where('tenant_id', '=', job.tenant_id)
      .where('keywords_hash', '=', job.keywords_hash)
      .where('lease_owner', '=', owner)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }
}
