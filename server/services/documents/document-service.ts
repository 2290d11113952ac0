import type { DocumentPipelineStatus, DocumentRetryRequest } from '../../../common/api/endpoints/documents';
import { ERRORS } from '../../../common/api/errors';
import { documentKindOf } from '../../../common/files/documents';
import { AppError } from '../../http/app-error';
import type { DocumentJobRepository } from '../../repositories/document-job-repository';
import type { BlobStore, ThumbnailStore } from '../../storage/byte-store';
import { actionLog, target } from '../action-log/recorder';
import type { Caller } from '../caller';
import type { RenditionSource } from '../download-service';
import type { ContentSink, DocumentPool, DocumentSettings } from './document-pool';
import { kindsDoable, type DocumentTools } from './tools';

const FAILURES_SHOWN = 50;
const ORPHANS_PER_PASS = 500;

export interface DocumentServiceDeps {
  jobs: DocumentJobRepository;
  blobs: BlobStore;
  thumbnails: ThumbnailStore;
  tools: DocumentTools;
  settings: DocumentSettings;
  pool: Pick<DocumentPool, 'wake'>;
  content: () => ContentSink | null;
}

/**
 * The documents pipeline's face to the rest of the server (issue 41; docs/documents.md): where a
 * preview finds an Office document's rendition, what admins see and retry, and the removal of what a
 * blob's job made when the blob goes.
 */
export class DocumentService implements RenditionSource {
  constructor(private readonly deps: DocumentServiceDeps) {}

  private officeDoable(): boolean {
    return this.deps.settings.workers > 0 && kindsDoable(this.deps.tools).includes('office');
  }

  /**
   * The PDF rendition of an Office blob. A blob with no job yet (stored before the pipeline, or named
   * a document only by a later rename or copy) is queued here — a preview never converts on its path.
   * While it waits, someone is looking at 正在生成预览: the job goes before those nobody waits for
   * (docs/documents.md, "Which job goes first").
   */
  async pdfOf(tenantId: string, blobId: string, name: string): Promise<{ key: string; size: number } | 'pending' | 'unavailable'> {
    const job = await this.deps.jobs.find(blobId);
    if (job?.status === 'done' && job.rendition_key && job.output_size != null) return { key: job.rendition_key, size: Number(job.output_size) };
    if (!this.officeDoable()) return 'unavailable';
    if (!job) {
      const blob = await this.deps.jobs.blob(blobId);
      if (!blob || blob.tenant_id !== tenantId || documentKindOf(name) !== 'office') return 'unavailable';
      await this.deps.jobs.queue({ blobId, tenantId, kind: 'office', name, size: Number(blob.size), now: Date.now(), requested: true });
      this.deps.pool.wake();
      return 'pending';
    }
    if (job.kind !== 'office' || (job.status !== 'queued' && job.status !== 'running')) return 'unavailable';
    if (job.requested_at == null && (await this.deps.jobs.request(blobId, Date.now()))) this.deps.pool.wake();
    return 'pending';
  }

  async status(caller: Caller): Promise<DocumentPipelineStatus> {
    const [counts, failures] = await Promise.all([this.deps.jobs.counts(caller.tenantId), this.deps.jobs.failures(caller.tenantId, FAILURES_SHOWN)]);
    const { tools, settings } = this.deps;
    return {
      counts,
      failures: failures.map((f) => ({ jobId: f.blob_id, name: f.name, error: f.error ?? '', attempts: f.attempts, failedAt: f.finished_at == null ? null : Number(f.finished_at) })),
      converter: {
        installed: tools.missing.length === 0,
        missing: tools.missing,
        isolation: tools.isolation,
        workers: settings.workers,
        timeLimitMs: settings.timeLimitMs,
        maxBytes: settings.maxBytes,
      },
    };
  }

  /** Queues failures of the caller's tenant again; recorded with the files' names. */
  async retry(caller: Caller, req: DocumentRetryRequest): Promise<{ retried: number }> {
    const entry = { action: 'file.renditionRetry' as const, targets: [] as ReturnType<typeof target>[], detail: { all: req.jobIds === undefined } as Record<string, unknown> };
    actionLog.record(entry);
    const rows = await this.deps.jobs.retry(caller.tenantId, req.jobIds ?? null, Date.now());
    if (req.jobIds !== undefined && rows.length === 0) throw new AppError(ERRORS.NOT_FOUND);
    entry.targets.push(...rows.map((r) => target('file', r.blob_id, r.name)));
    entry.detail.retried = rows.length;
    if (rows.length > 0) this.deps.pool.wake();
    return { retried: rows.length };
  }

  /**
   * Removes what the jobs of these blobs made — the PDF rendition, the thumbnail, the extracted text —
   * and the jobs (called wherever blobs are removed: the recycle bin's purge, startup recovery).
   */
  async forgetBlobs(blobIds: readonly string[]): Promise<void> {
    for (const job of await this.deps.jobs.forget(blobIds)) {
      if (job.rendition_key) await this.deps.blobs.remove(job.rendition_key);
      await this.deps.thumbnails.remove(job.blob_id);
      await this.deps.content()?.removeBlob(job.blob_id);
    }
  }

  /** The sweeper's pass: jobs whose blob went by a path that did not forget them. */
  async sweepOrphans(): Promise<number> {
    let swept = 0;
    for (;;) {
      const orphans = await this.deps.jobs.orphans(ORPHANS_PER_PASS);
      if (orphans.length === 0) return swept;
      await this.forgetBlobs(orphans);
      swept += orphans.length;
      if (orphans.length < ORPHANS_PER_PASS) return swept;
    }
  }
}
