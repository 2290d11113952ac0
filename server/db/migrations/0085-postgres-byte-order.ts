import { sql, type Kysely, type Migration } from 'kysely';
import { BYTE_ORDER_COLUMNS, engineOf } from '../dialect';

/**
 * PostgreSQL compares text by the database's collation (en_US.UTF-8 on many installations), which
 * is not byte order; the keyset pages walk `files.sort_key` and `name_key` in byte order (SQLite's
 * BINARY, common/files/name-sort-key.ts). On PostgreSQL those columns get `COLLATE "C"` (their
 * indexes are rebuilt with it); on SQLite nothing changes.
 */
export const m0085_postgres_byte_order: Migration = {
  async up(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    for (const { table, column } of BYTE_ORDER_COLUMNS) {
      await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} type text collate "C"`.execute(db);
    }
  },
};
