import type { Kysely, Migration } from 'kysely';

/**
 * Blob keys being written by a small-file batch (services/batch-upload-service.ts): recorded before
 * the files are renamed into the blob store and deleted by the transaction that creates their blob
 * rows. Startup recovery removes the file of an intent left without a blob row (a crash between the
 * rename and the commit), so no unreferenced one-piece blob survives a crash.
 */
export const m0041_blob_intents: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('blob_intents')
      .addColumn('storage_key', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('blob_intents').ifExists().execute();
  },
};
