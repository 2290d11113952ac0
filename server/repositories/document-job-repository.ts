import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { BlobsTable, DocumentJobStatus, DocumentJobsTable, Database } from '../db/schema';
import type { Tx } from './upload-commit-tx';

/** A job as queued: one per blob (the blob is already one per tenant and content fingerprint). */
export interface QueuedDocument {
  blobId: string;
  tenantId: string;
  kind: string;
  name: string;
  size: number;
  now: number;
  /** Someone waits for it already (a preview queued it): taken before jobs nobody waits for. */
  requested?: boolean;
}

/** What a finished job records. */
export type JobEnding =
  | { status: 'done'; outputSize: number | null; textChars: number; thumbnail: boolean; peakRssKb: number; durationMs: number }
  | { status: 'failed'; error: string; peakRssKb: number | null; durationMs: number };

/** What removing a blob's job leaves to remove from the stores. */
export type ForgottenJob = Pick<DocumentJobsTable, 'blob_id' | 'rendition_key' | 'thumbnail'>;

/** Queues the documents job of a blob unless it has one (inside the commit's transaction, or alone). */
export async function queueDocumentJob(db: Db | Tx, job: QueuedDocument): Promise<boolean> {
  const inserted = await db
    .insertInto('document_jobs')
    .values({
      blob_id: job.blobId,
      tenant_id: job.tenantId,
      kind: job.kind,
      name: job.name.slice(0, 255),
      status: 'queued',
      attempts: 0,
      error: null,
      lease_owner: null,
      lease_until: null,
      queued_at: job.now,
      started_at: null,
      finished_at: null,
      duration_ms: null,
      input_size: job.size,
      output_size: null,
      peak_rss_kb: null,
      text_chars: null,
      rendition_key: null,
      thumbnail: 0,
      requested_at: job.requested ? job.now : null,
    })
    .onConflict((oc) => oc.column('blob_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A job a worker may take at `now`: queued, or running under a lease that passed (its process died). */
const waiting = (now: number) => (eb: ExpressionBuilder<Database, 'document_jobs'>) =>
  eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('lease_until', '<', now)])]);

/**
 * The documents pipeline's queue (migration 0097): jobs claimed with a lease by any server process,
 * so several share it and one whose process died is taken again when its lease passes.
 */
export class DocumentJobRepository {
  constructor(private readonly db: Db) {}

  queue(job: QueuedDocument): Promise<boolean> {
    return queueDocumentJob(this.db, job);
  }

  find(blobId: string): Promise<DocumentJobsTable | undefined> {
    return this.db.selectFrom('document_jobs').selectAll().where('blob_id', '=', blobId).executeTakeFirst();
  }

  /** The blob a job works on (any tenant: the job names it), or undefined when it is gone. */
  blob(blobId: string): Promise<BlobsTable | undefined> {
    return this.db.selectFrom('blobs').selectAll().where('id', '=', blobId).executeTakeFirst();
  }

  /**
   * Takes the next waiting job of `kinds` — queued, or running under a lease that passed (its process
   * died) — for `owner` until `now + leaseMs`: one someone waits for first (`requested_at`, the
   * earliest request first), else the oldest. A job taken `maxAttempts` times without an ending (each
   * take killed its process) is failed instead. Null when none is waiting.
   */
  async claim(owner: string, kinds: readonly string[], now: number, leaseMs: number, maxAttempts: number): Promise<DocumentJobsTable | null> {
    if (kinds.length === 0) return null;
    await this.db
      .updateTable('document_jobs')
      .set({ status: 'failed', error: '转换进程多次中断', finished_at: now, lease_owner: null, lease_until: null, requested_at: null })
      .where('status', '=', 'running')
      .where('lease_until', '<', now)
      .where('attempts', '>=', maxAttempts)
      .execute();
    for (let tries = 0; tries < 5; tries++) {
      const next = (await this.nextRequested(kinds, now)) ?? (await this.nextQueued(kinds, now));
      if (!next) return null;
      // Taken only if still waiting: another process may have taken it since the look-up.
      const taken = await this.db
        .updateTable('document_jobs')
        .set((eb) => ({ status: 'running', lease_owner: owner, lease_until: now + leaseMs, started_at: now, attempts: eb('attempts', '+', 1) }))
        .where('blob_id', '=', next.blob_id)
        .where(waiting(now))
        .returningAll()
        .executeTakeFirst();
      if (taken) return taken;
    }
    return null;
  }

  /** The waiting job someone asked for first (two look-ups rather than one ORDER BY over both, so each reads an index in order). */
  private nextRequested(kinds: readonly string[], now: number): Promise<{ blob_id: string } | undefined> {
    return this.db
      .selectFrom('document_jobs')
      .select('blob_id')
      .where('requested_at', 'is not', null)
      .where('kind', 'in', kinds)
      .where(waiting(now))
      .orderBy('requested_at')
      .orderBy('blob_id')
      .limit(1)
      .executeTakeFirst();
  }

  private nextQueued(kinds: readonly string[], now: number): Promise<{ blob_id: string } | undefined> {
    return this.db
      .selectFrom('document_jobs')
      .select('blob_id')
      .where('kind', 'in', kinds)
      .where(waiting(now))
      .orderBy('queued_at')
      .orderBy('blob_id')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Someone waits for this job (its preview answered PREVIEW_PENDING): it goes before the jobs nobody
   * waits for. The first request's time is kept, so a viewer asking again does not lose its place to a
   * later one. True when the job was not yet asked for (the caller wakes the workers).
   */
  async request(blobId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('document_jobs')
      .set({ requested_at: now })
      .where('blob_id', '=', blobId)
      .where('requested_at', 'is', null)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Records the rendition's key before its bytes are written (false: the job is no longer this owner's). */
  async setRenditionKey(blobId: string, owner: string, key: string): Promise<boolean> {
    const r = await this.db
      .updateTable('document_jobs')
      .set({ rendition_key: key })
      .where('blob_id', '=', blobId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Ends a job this owner holds; false when it no longer does (its blob was removed meanwhile). */
  async finish(blobId: string, owner: string, ending: JobEnding, now: number): Promise<boolean> {
    const common = { status: ending.status as DocumentJobStatus, finished_at: now, duration_ms: ending.durationMs, lease_owner: null, lease_until: null, peak_rss_kb: ending.peakRssKb, requested_at: null };
    const set =
      ending.status === 'done'
        ? { ...common, error: null, output_size: ending.outputSize, text_chars: ending.textChars, thumbnail: ending.thumbnail ? 1 : 0 }
        : { ...common, error: ending.error.slice(0, 500) };
    const r = await this.db.updateTable('document_jobs').set(set).where('blob_id', '=', blobId).where('lease_owner', '=', owner).where('status', '=', 'running').executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Gives a job back to the queue (its process is closing). */
  async release(blobId: string, owner: string): Promise<void> {
    await this.db
      .updateTable('document_jobs')
      .set((eb) => ({ status: 'queued', lease_owner: null, lease_until: null, attempts: eb('attempts', '-', 1) }))
      .where('blob_id', '=', blobId)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'running')
      .execute();
  }

  /** Jobs by status, of one tenant (null: all). */
  async counts(tenantId: string | null): Promise<Record<DocumentJobStatus, number>> {
    let q = this.db.selectFrom('document_jobs').select(['status', sql<number>`count(*)`.as('n')]).groupBy('status');
    if (tenantId !== null) q = q.where('tenant_id', '=', tenantId);
    const counts: Record<DocumentJobStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
    for (const r of await q.execute()) counts[r.status] = Number(r.n);
    return counts;
  }

  /** A tenant's failed jobs, the latest first. */
  failures(tenantId: string, limit: number): Promise<DocumentJobsTable[]> {
    return this.db
      .selectFrom('document_jobs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'failed')
      .orderBy('finished_at', 'desc')
      .orderBy('blob_id')
      .limit(limit)
      .execute();
  }

  /**
   * Queues a tenant's failed jobs again (`blobIds`: those; null: all); answers the rows retried. Named
   * ones are requested (the admin watches them on the card); 全部重试 queues them behind what waits.
   */
  async retry(tenantId: string, blobIds: readonly string[] | null, now: number): Promise<DocumentJobsTable[]> {
    return this.db.transaction().execute(async (tx) => {
      let q = tx.selectFrom('document_jobs').selectAll().where('tenant_id', '=', tenantId).where('status', '=', 'failed');
      if (blobIds !== null) q = q.where('blob_id', 'in', blobIds.length > 0 ? [...blobIds] : ['']);
      const rows = await q.execute();
      if (rows.length === 0) return [];
      await tx
        .updateTable('document_jobs')
        .set({ status: 'queued', attempts: 0, error: null, queued_at: now, started_at: null, finished_at: null, duration_ms: null, requested_at: blobIds === null ? null : now })
        .where('status', '=', 'failed')
        .where(
          'blob_id',
          'in',
          rows.map((r) => r.blob_id),
        )
        .execute();
      return rows;
    });
  }

  /** Removes the jobs of these blobs; answers what they had stored. */
  async forget(blobIds: readonly string[]): Promise<ForgottenJob[]> {
    if (blobIds.length === 0) return [];
    return this.db.deleteFrom('document_jobs').where('blob_id', 'in', [...blobIds]).returning(['blob_id', 'rendition_key', 'thumbnail']).execute();
  }

  /** Blob ids of jobs whose blob is gone (removed by a path that did not forget them). */
  async orphans(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('document_jobs')
      .select('blob_id')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('blobs').select('blobs.id').whereRef('blobs.id', '=', 'document_jobs.blob_id'))))
      .limit(limit)
      .execute();
    return rows.map((r) => r.blob_id);
  }
}
