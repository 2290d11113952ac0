import { type Kysely, type Migration } from 'kysely';

/**
 * Pipelined uploads: the size-keyed second-upload probe looks up the tenant's blobs by size.
 * (Streaming sessions need no column: their fingerprint is '' and their digests null until merge.)
 */
export const m0003_pipelined_uploads: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('blobs_tenant_size').on('blobs').columns(['tenant_id', 'size', 'created_at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('blobs_tenant_size').ifExists().execute();
  },
};
