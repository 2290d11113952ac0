/**
 * Sensitive words in content: when a tenant's keyword list changes, every text of the tenant is
 * checked again in the background (never on a request's path). The job lives in the database
 * (content_scan_jobs: progress, the last doc checked, a lease), so it resumes after a restart and one
 * process works it at a time; the admin's 文件安全 page shows its progress. Texts arriving meanwhile
 * are checked with the new list as they arrive (content-text-service.ts) and skipped by the walk.
 */
import { randomUUID } from 'node:crypto';
import type { ContentScanProgress } from '../../../common/api/sharing';
import type { ContentScanRepository } from '../../repositories/content-scan-repository';
import type { ContentTextRepository } from '../../repositories/content-text-repository';
import { findKeywords, keywordsHash } from './text-scan';

export interface ContentScanDeps {
  jobs: ContentScanRepository;
  texts: ContentTextRepository;
  /** The tenant's keyword list as stored now (not a cached copy: the job must check with this list). */
  keywordsOf: (tenantId: string) => Promise<readonly string[]>;
  batch?: number;
  leaseMs?: number;
  /** How often an idle worker looks for a job another process started. */
  pollMs?: number;
  now?: () => number;
  log?: { error(obj: object, msg: string): void };
}

export class ContentScanJobs {
  private readonly owner = randomUUID();
  private wake: (() => void) | null = null;

  constructor(private readonly deps: ContentScanDeps) {}

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }

  /** A keyword list was saved: re-scan the tenant's texts against it (replacing a job in progress). */
  async start(tenantId: string, keywords: readonly string[]): Promise<void> {
    const total = await this.deps.texts.countTexts(tenantId);
    await this.deps.jobs.start(tenantId, keywordsHash(keywords), total, this.now());
    this.wake?.();
  }

  async progress(tenantId: string): Promise<ContentScanProgress | null> {
    const job = await this.deps.jobs.get(tenantId);
    if (!job) return null;
    const done = Number(job.done);
    const keywords = await this.deps.keywordsOf(tenantId);
    return {
      state: job.finished_at === null ? 'running' : 'done',
      done,
      total: Math.max(Number(job.total), done),
      hits: await this.deps.texts.countWithHits(tenantId, keywords),
      startedAt: Number(job.started_at),
      finishedAt: job.finished_at === null ? null : Number(job.finished_at),
    };
  }

  /** Works jobs until `signal` aborts; idle, it waits for `start` or polls (another process's job). */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      let worked = false;
      try {
        worked = await this.workOnce(signal);
      } catch (err) {
        if (signal.aborted) return;
        this.deps.log?.error({ err }, 'content re-scan failed; trying again');
      }
      if (!worked) await this.idle(signal);
    }
  }

  private idle(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.deps.pollMs ?? 2000);
      signal.addEventListener('abort', done);
      this.wake = done;
    });
  }

  /** Takes one job and works one batch of it; false when there was nothing to do. */
  async workOnce(signal?: AbortSignal): Promise<boolean> {
    const leaseMs = this.deps.leaseMs ?? 60_000;
    const job = await this.deps.jobs.claim(this.owner, leaseMs, this.now());
    if (!job) return false;
    const keywords = await this.deps.keywordsOf(job.tenant_id);
    const hash = keywordsHash(keywords);
    // Not the list saved now (its job row was not written: a failure between the two writes): the job
    // starts again for the list as it is.
    if (hash !== job.keywords_hash) {
      await this.start(job.tenant_id, keywords);
      return true;
    }
    const batch = await this.deps.texts.nextTexts(job.tenant_id, Number(job.after_doc), this.deps.batch ?? 200);
    let hits = 0; // re-scanned texts found to hold a keyword (the job's own count)
    for (const text of batch) {
      signal?.throwIfAborted();
      const found = text.scannedHash === hash ? null : findKeywords(text.body, text.pageStarts, keywords);
      if (found) {
        await this.deps.texts.rescanned(text, { hash, hits: found });
        if (found.length > 0) hits += 1;
      }
    }
    const last = batch[batch.length - 1];
    await this.deps.jobs.advance(
      job,
      this.owner,
      { afterDoc: last ? last.doc : Number(job.after_doc), done: batch.length, hits, finished: batch.length < (this.deps.batch ?? 200) },
      leaseMs,
      this.now(),
    );
    return true;
  }
}
