import { randomBytes } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extensionOf, type DocumentKind } from '../../../common/files/documents';
import { formatSize } from '../../../common/format/size';
import type { DocumentJobsTable } from '../../db/schema';
import type { DocumentJobRepository } from '../../repositories/document-job-repository';
import type { BlobStore, ThumbnailStore } from '../../storage/byte-store';
import { layoutOf } from '../upload-commit';
import { DocumentJobFailure, extractDocument } from './extract';
import { kindsDoable, type DocumentTools } from './tools';

/**
 * Where extracted text goes: docsearch's content text service (server/services/content/), which
 * stores and indexes it. Kept to this one shape so the pipeline does not know how.
 */
export interface ContentSink {
  putText(blobId: string, input: { text: string; pageStarts?: readonly number[] | null }): Promise<unknown>;
  removeBlob(blobId: string): Promise<void>;
}

export interface DocumentSettings {
  /** Jobs run at once by this process (DOCUMENT_WORKERS, at most one per core; 0: none). */
  workers: number;
  /** Larger blobs are not converted (DOCUMENT_MAX_BYTES); their job fails with the reason. */
  maxBytes: number;
  /** A job's tools are killed past this (DOCUMENT_TIME_LIMIT_MS, 60 s). */
  timeLimitMs: number;
  /** How often an idle worker looks for jobs queued by other processes. */
  pollMs: number;
  /** Work directories (the document, LibreOffice's profile, its output) go here and are removed after. */
  tmpDir: string;
}

export interface DocumentPoolDeps {
  jobs: DocumentJobRepository;
  blobs: BlobStore;
  thumbnails: ThumbnailStore;
  tools: DocumentTools;
  content: () => ContentSink | null;
  settings: DocumentSettings;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** A lease outlives a job's time limit by this much (reading and storing around the tools). */
const LEASE_SLACK_MS = 60_000;
/** A job taken this many times without an ending (each take's process died) fails. */
export const MAX_ATTEMPTS = 3;

/**
 * The bounded pool of converter workers (issue 41; docs/documents.md): each worker claims one job at
 * a time from the database with a lease (so every server process shares one queue, and a job whose
 * process died is taken again after its lease), runs it in a work directory of its own, records how
 * it ended, and takes the next. A document that crashes or hangs its tools fails alone.
 */
export class DocumentPool {
  private readonly owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  private readonly life = new AbortController();
  private workers: Promise<void>[] = [];
  private wakers = new Set<() => void>();

  constructor(private readonly deps: DocumentPoolDeps) {}

  start(): void {
    if (this.workers.length > 0) return;
    for (let i = 0; i < this.deps.settings.workers; i++) this.workers.push(this.work());
  }

  /** A job was queued here: idle workers look now rather than at their next poll. */
  wake(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /** Stops the workers: a job in flight is killed and given back to the queue. */
  async close(): Promise<void> {
    this.life.abort();
    this.wake();
    await Promise.all(this.workers);
  }

  private async work(): Promise<void> {
    const { signal } = this.life;
    const kinds = kindsDoable(this.deps.tools);
    const leaseMs = this.deps.settings.timeLimitMs + LEASE_SLACK_MS;
    while (!signal.aborted) {
      let job: DocumentJobsTable | null = null;
      try {
        job = await this.deps.jobs.claim(this.owner, kinds, Date.now(), leaseMs, MAX_ATTEMPTS);
        if (job) await this.run(job, signal);
      } catch (err) {
        if (!signal.aborted) this.deps.log.error({ err, blobId: job?.blob_id }, 'documents job failed unexpectedly');
        if (job && signal.aborted) await this.deps.jobs.release(job.blob_id, this.owner).catch(() => undefined);
        else if (job) await this.end(job, { status: 'failed', error: '内部错误', peakRssKb: null, durationMs: 0 }).catch(() => undefined);
      }
      if (!job && !signal.aborted) await this.idle(signal);
    }
  }

  private idle(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, this.deps.settings.pollMs);
      this.wakers.add(done);
      if (signal.aborted) done();
    });
  }

  private async run(job: DocumentJobsTable, signal: AbortSignal): Promise<void> {
    const started = Date.now();
    const { settings, tools } = this.deps;
    const blob = await this.deps.jobs.blob(job.blob_id);
    if (!blob) {
      // Removed since it was queued: nothing to make (removal forgets the job; this is the race).
      await this.forget(job.blob_id);
      return;
    }
    if (Number(blob.size) > settings.maxBytes) {
      await this.end(job, { status: 'failed', error: `文件超过转换大小上限（${formatSize(settings.maxBytes)}）`, peakRssKb: null, durationMs: 0 });
      return;
    }
    const workDir = await fsp.mkdtemp(path.join(settings.tmpDir, 'doc-'));
    try {
      const input = path.join(workDir, `document.${extensionOf(job.name) || 'bin'}`);
      try {
        await pipeline(this.deps.blobs.openRead(blob.storage_key, undefined, layoutOf(blob), signal), createWriteStream(input));
      } catch (err) {
        // Both stores say ENOENT for bytes that are not there: damage the startup recovery reports
        // (STORAGE DAMAGE, once, for an operator) — this job fails with that reason, not as a fault of its own.
        if (signal.aborted || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        await this.end(job, { status: 'failed', error: '文件内容在存储中缺失', peakRssKb: null, durationMs: Date.now() - started });
        this.deps.log.warn({ blobId: job.blob_id }, 'document not converted: its bytes are missing from the store');
        return;
      }
      let out;
      try {
        out = await extractDocument({ kind: job.kind as DocumentKind, input, workDir, deadline: Date.now() + settings.timeLimitMs, limitMs: settings.timeLimitMs }, tools, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        if (!(err instanceof DocumentJobFailure)) throw err;
        await this.end(job, { status: 'failed', error: err.reason, peakRssKb: null, durationMs: Date.now() - started });
        this.deps.log.warn({ blobId: job.blob_id, reason: err.reason }, 'document not converted');
        return;
      }
      if (signal.aborted) throw new Error('closing');
      let outputSize: number | null = null;
      let renditionKey: string | null = null;
      if (out.pdfPath) {
        const pdf = await fsp.readFile(out.pdfPath);
        renditionKey = this.deps.blobs.newKey();
        // Recorded first: a crash after the write leaves a key the removal of the blob still finds.
        if (!(await this.deps.jobs.setRenditionKey(job.blob_id, this.owner, renditionKey))) return;
        await this.deps.blobs.writePieces([{ key: renditionKey, data: pdf }]);
        outputSize = pdf.length;
      }
      if (out.thumbnail) await this.deps.thumbnails.put(job.blob_id, out.thumbnail);
      await this.deps.content()?.putText(job.blob_id, { text: out.text, pageStarts: job.kind === 'text' ? null : out.pageStarts });
      const ended = await this.end(job, { status: 'done', outputSize, textChars: out.text.length, thumbnail: out.thumbnail !== null, peakRssKb: out.peakRssKb, durationMs: Date.now() - started });
      this.deps.log.info({ blobId: job.blob_id, kind: job.kind, ms: Date.now() - started, inputSize: Number(blob.size), outputSize, peakRssKb: out.peakRssKb }, 'document converted');
      // The blob went while it was converted (its removal forgot the job): what was made goes too.
      if (!ended) await this.removeMade(job.blob_id, renditionKey);
    } finally {
      await fsp.rm(workDir, { recursive: true, force: true });
    }
  }

  private end(job: DocumentJobsTable, ending: Parameters<DocumentJobRepository['finish']>[2]): Promise<boolean> {
    return this.deps.jobs.finish(job.blob_id, this.owner, ending, Date.now());
  }

  private async forget(blobId: string): Promise<void> {
    for (const f of await this.deps.jobs.forget([blobId])) await this.removeMade(f.blob_id, f.rendition_key);
  }

  private async removeMade(blobId: string, renditionKey: string | null | undefined): Promise<void> {
    if (renditionKey) await this.deps.blobs.remove(renditionKey);
    await this.deps.thumbnails.remove(blobId);
    await this.deps.content()?.removeBlob(blobId);
  }
}
