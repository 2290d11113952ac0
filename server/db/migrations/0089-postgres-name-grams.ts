import { sql, type Kysely, type Migration } from 'kysely';
import { engineOf } from '../dialect';

/**
 * Keyword search of one or two characters on PostgreSQL. The trigram index of 0086 has nothing to
 * look up for them (`%合同%` holds no trigram), so such a search read every live entry of the table (a
 * Seq Scan, or a walk of the tenant's whole files_search). Most Chinese keywords are one or two
 * characters (合同, 报告, 图).
 *
 * `file_name_grams(name_key)` is the name's characters and its pairs of adjacent characters (a name of
 * n characters gives 2n − 1); a GIN index on it finds the live entries whose name holds the keyword
 * (`@> array[keyword]`), and the query's LIKE still decides (search-repository.ts). PostgreSQL keeps the
 * index on every write of name_key, so no write path changes. The function counts characters (not
 * bytes) and does not depend on the database's locale: pg_trgm, by contrast, takes CJK characters for
 * word characters only under a UTF-8 LC_CTYPE (under "C" it extracts no trigram from 年度报告).
 *
 * The planner has no statistics for the expression (PostgreSQL keeps none for a partial index's
 * expressions) and takes 0.5 % of the rows for a match, so it always reads this index and sorts the
 * matches: a search costs what its keyword matches, never the tenant's size. Deliberately: with
 * statistics (CREATE STATISTICS on the expression) it walked files_search in name order for frequent
 * keywords, and 合同 across a user's spaces took 217 ms instead of 17 (docs/postgresql.md).
 *
 * Built in the migration's transaction (writes to files wait meanwhile; reads go on): ~10–20 s per
 * 100k live entries on a loaded 2-core machine (docs/postgresql.md). SQLite is left as it is: it
 * walks files_search in name order (search-repository.ts).
 */
export const m0089_postgres_name_grams: Migration = {
  async up(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    // Immutable (an index expression must be), and only pg_catalog functions, which no search_path hides.
    await sql`create function file_name_grams(k text) returns text[] language sql immutable strict parallel safe as $$
      select pg_catalog.string_to_array(k, null)
        || array(select pg_catalog.substr(k, i, 2) from pg_catalog.generate_series(1, pg_catalog.length(k) - 1) as i)
    $$`.execute(db);
    await sql`create index files_name_grams on files using gin (file_name_grams(name_key)) where deleted_at is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    await sql`drop index if exists files_name_grams`.execute(db);
    await sql`drop function if exists file_name_grams(text)`.execute(db);
  },
};
