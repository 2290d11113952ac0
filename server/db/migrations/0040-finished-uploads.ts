import type { Kysely, Migration } from 'kysely';

/**
 * Uploads that created their file, by the client's key for the item (common/transfer/protocol.ts,
 * "Finished uploads"): a client whose answer was lost (a reload while the merge ran, a cut connection)
 * asks again with the same key and learns the file exists, instead of uploading it a second time and
 * meeting its own copy as a name clash. Kept as long as an upload session (UPLOAD_EXPIRY_MS).
 */
export const m0040_finished_uploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('finished_uploads')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('client_key', 'text', (c) => c.notNull())
      .addColumn('file_id', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('finished_uploads_pk', ['user_id', 'client_key'])
      .execute();
    await db.schema.createIndex('finished_uploads_finished_at').on('finished_uploads').column('finished_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('finished_uploads').ifExists().execute();
  },
};
