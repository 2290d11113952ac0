import { sql, type Kysely, type Migration } from 'kysely';

/** Recycle-bin pages walk (deleted_by, deleted_at, id) with no sort step, like folder listings. */
export const m0007_files_trash_order: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`drop index files_trash`.execute(db);
    await sql`create index files_trash on files (deleted_by, deleted_at, id) where trash_root_id = id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index files_trash`.execute(db);
    await sql`create index files_trash on files (deleted_by, deleted_at) where trash_root_id = id`.execute(db);
  },
};
