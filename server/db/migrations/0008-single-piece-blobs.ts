import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One spelling for "stored as one piece": createTxt used to record chunk_size 0 where the schema says
 * NULL, so startup recovery took its blobs for chunked ones without a directory and reported them as
 * STORAGE DAMAGE on every start.
 */
export const m0008_single_piece_blobs: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`update blobs set chunk_size = null, chunk_count = null where chunk_size = 0`.execute(db);
  },
  async down() {
    // Nothing to undo: NULL is what the earlier code reads as one piece too.
  },
};
