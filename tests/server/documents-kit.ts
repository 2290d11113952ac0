import type { DocumentJobsTable } from '../../server/db/schema';
import { withDb, type TestServer } from './helpers';

/** The blob a file's content is kept in (renditions and document jobs are per blob). */
export const blobOf = (server: TestServer, fileId: string) =>
  withDb(server, (db) => (db.prepare('select blob_id from files where id = ?').get(fileId) as { blob_id: string }).blob_id);

/** The document job of a blob, if one was queued. */
export const jobOf = (server: TestServer, blobId: string) =>
  withDb(server, (db) => db.prepare('select * from document_jobs where blob_id = ?').get(blobId) as DocumentJobsTable | undefined);

/** Waits until the blob's job ended (done or failed); LibreOffice takes seconds per document. */
export async function ended(server: TestServer, blobId: string, timeoutMs = 90_000): Promise<DocumentJobsTable> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobOf(server, blobId);
    if (job && (job.status === 'done' || job.status === 'failed')) return job;
    if (Date.now() > until) throw new Error(`job of ${blobId} still ${job?.status ?? 'missing'}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
