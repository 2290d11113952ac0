import { sql, type Kysely, type Migration } from 'kysely';
import { engineOf } from '../dialect';

/**
 * Keyword search matches `name_key like '%…%'`, which no btree can seek. SQLite walks files_search
 * in name order and stops after a page (search-repository.ts); PostgreSQL's planner instead sorted
 * the whole table's live rows (a Seq Scan) for every search. On PostgreSQL a GIN trigram index on
 * name_key (pg_trgm: part of PostgreSQL's own distribution, in Debian's postgresql-15, and a trusted
 * extension since PostgreSQL 13, so the database's owner may create it) finds the candidates, and
 * only those are sorted. SQLite is left as it is.
 */
export const m0086_postgres_name_trigrams: Migration = {
  async up(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index files_name_trgm on files using gin (name_key gin_trgm_ops) where deleted_at is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    await sql`drop index if exists files_name_trgm`.execute(db);
  },
};
