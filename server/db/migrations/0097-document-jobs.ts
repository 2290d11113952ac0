import { type Kysely, type Migration } from 'kysely';

/**
 * The documents pipeline's jobs (issue 41; docs/documents.md), one per blob: converting an Office
 * document to its PDF rendition, extracting text, making a first-page thumbnail. Claimed by any server
 * process with a lease (`lease_until`), so several share the queue and a job whose process died is
 * taken again once its lease passes. `rendition_key`: the PDF's one-piece key in the blob store,
 * recorded before it is written so nothing stored goes unrecorded. No foreign key to blobs: the row
 * must outlive its blob long enough for what it names to be removed with it.
 */
export const m0097_document_jobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('document_jobs')
      .addColumn('blob_id', 'text', (c) => c.primaryKey())
      .addColumn('tenant_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('queued_at', 'bigint', (c) => c.notNull())
      .addColumn('started_at', 'bigint')
      .addColumn('finished_at', 'bigint')
      .addColumn('duration_ms', 'integer')
      .addColumn('input_size', 'bigint', (c) => c.notNull())
      .addColumn('output_size', 'bigint')
      .addColumn('peak_rss_kb', 'integer')
      .addColumn('text_chars', 'integer')
      .addColumn('rendition_key', 'text')
      .addColumn('thumbnail', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('document_jobs_status').on('document_jobs').columns(['status', 'queued_at']).execute();
    await db.schema.createIndex('document_jobs_tenant_status').on('document_jobs').columns(['tenant_id', 'status']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('document_jobs').execute();
  },
};
