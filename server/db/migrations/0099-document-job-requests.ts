import { type Kysely, type Migration } from 'kysely';

/**
 * When someone first waited for a document job's output (docs/documents.md, "Which job goes first"):
 * a preview that answered PREVIEW_PENDING, or an admin's 重试 of that one file. Workers take waiting
 * jobs with `requested_at` first, the earliest request first, then the rest oldest first. Cleared when
 * the job ends, so the index holds only jobs still waited for.
 */
export const m0099_document_job_requests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('document_jobs').addColumn('requested_at', 'bigint').execute();
    await db.schema.createIndex('document_jobs_requested').on('document_jobs').columns(['requested_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('document_jobs_requested').execute();
    await db.schema.alterTable('document_jobs').dropColumn('requested_at').execute();
  },
};
