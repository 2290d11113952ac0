import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Each blob records the chunk size its fingerprint was computed with (common/transfer/chunk-policy.ts):
 * the fingerprint is SHA-256 over the chunk digests, so it depends on the size, and a server started
 * with another CHUNK_SIZE must know which blobs to fingerprint again (services/fingerprint-upgrade.ts)
 * for second uploads and dedup to keep finding them.
 *
 * A chunked blob was fingerprinted at its own chunk size (by its uploader, or by the upgrade after
 * 0042, which cut it there too). A one-piece blob (small-file batch, created text) was fingerprinted at
 * the server's CHUNK_SIZE of the day, which the database never held: it is left NULL here and the
 * first start after this migration records its configured size (FingerprintUpgradeRepository.listStale).
 */
export const m0084_fingerprint_chunk_size: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('blobs').addColumn('fingerprint_chunk_size', 'integer').execute();
    await sql`update blobs set fingerprint_chunk_size = chunk_size where chunk_size is not null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('blobs').dropColumn('fingerprint_chunk_size').execute();
  },
};
