import { promises as fsp } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DocumentJobRepository } from '../repositories/document-job-repository';
import { registerDocumentRoutes } from '../routes/document-routes';
import { DocumentPool, type ContentSink, type DocumentSettings } from '../services/documents/document-pool';
import { DocumentService } from '../services/documents/document-service';
import { findTools } from '../services/documents/tools';
import type { Base, Routed } from './base';
import type { Storage } from './storage';

export interface Documents extends Routed {
  jobs: DocumentJobRepository;
  service: DocumentService;
  pool: DocumentPool;
  /** Where extracted text goes (docsearch's content text service), set once it is built. */
  setContent(sink: ContentSink): void;
  /** Stops the workers (a job in flight goes back to the queue) and removes this process's work directory. */
  close(): Promise<void>;
}

/** Work directories left by a process that died are removed once surely no job of it runs. */
const STALE_WORK_MS = 10 * 60_000;

/**
 * The documents pipeline (issue 41; docs/documents.md): the converter tools found at start, the job
 * queue, the pool of workers (started by app.ts once the server is built) and the service previews,
 * admins and blob removal ask.
 */
export async function buildDocuments({ db, config, log, storage }: Base & { storage: Storage }): Promise<Documents> {
  const options = config.documents ?? {};
  const tools = await findTools(options.soffice);
  const root = path.join(config.dataDir, 'documents-work');
  await fsp.mkdir(root, { recursive: true });
  for (const entry of await fsp.readdir(root)) {
    const stat = await fsp.stat(path.join(root, entry)).catch(() => null);
    if (stat && stat.mtimeMs < Date.now() - STALE_WORK_MS) await fsp.rm(path.join(root, entry), { recursive: true, force: true });
  }
  const tmpDir = await fsp.mkdtemp(path.join(root, `${process.pid}-`));
  const settings: DocumentSettings = {
    workers: Math.min(os.availableParallelism(), options.workers ?? os.availableParallelism()),
    maxBytes: options.maxBytes ?? 100 * 1024 * 1024,
    timeLimitMs: options.timeLimitMs ?? 60_000,
    pollMs: options.pollMs ?? 2000,
    tmpDir,
  };
  if (tools.missing.length > 0) log.warn({ missing: tools.missing }, 'documents: converter tools missing; Office previews answer PREVIEW_UNSUPPORTED');
  let content: ContentSink | null = null;
  const jobs = new DocumentJobRepository(db);
  const pool = new DocumentPool({ jobs, blobs: storage.blobs, thumbnails: storage.thumbnails, tools, content: () => content, settings, log });
  const service = new DocumentService({ jobs, blobs: storage.blobs, thumbnails: storage.thumbnails, tools, settings, pool, content: () => content });
  return {
    jobs,
    service,
    pool,
    setContent(sink) {
      content = sink;
    },
    routes(app: FastifyInstance) {
      registerDocumentRoutes(app, service);
    },
    async close() {
      await pool.close();
      await fsp.rm(tmpDir, { recursive: true, force: true });
    },
  };
}
