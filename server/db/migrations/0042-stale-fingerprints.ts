import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The chunk digest became a tree of 512 KiB leaves (common/transfer/chunk-digest.ts), which changes
 * every chunk digest and so every fingerprint. Every blob stored before is listed here;
 * services/fingerprint-upgrade.ts re-reads each one in the background after start-up, records its
 * fingerprint under the new digest and removes its row. Until then such a blob is only not found
 * for a second upload (the client uploads it again): nothing reads a wrong answer.
 * Upload sessions begun before need nothing: their fingerprint no longer matches a client's, so they
 * expire like any abandoned session.
 */
export const m0042_stale_fingerprints: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stale_fingerprints')
      .addColumn('blob_id', 'text', (c) => c.primaryKey())
      .execute();
    await sql`insert into stale_fingerprints (blob_id) select id from blobs`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('stale_fingerprints').ifExists().execute();
  },
};
