import { sql, type Kysely, type Migration } from 'kysely';
import { engineOf } from '../dialect';

/**
 * PostgreSQL only: `content_grams` (migration 0098, the GIN index of a text's characters and adjacent
 * pairs) in linear time. 0098's took `substr(k, i, 1)` for every i, and each substr of a UTF-8 text
 * walks it from the start: quadratic in the text's length, 6–14 ms for a 1,700-character text, paid on
 * every insert and update of a text (the bench's 100,000 texts took ~40 minutes to load) and on every
 * row where the planner filters by it. `string_to_array(k, null)` splits a text into its characters in
 * one pass (≈1 ms for the same text). The same arrays (as sets) for every text; the index is rebuilt
 * all the same, so nothing depends on that. SQLite: nothing (its indexes are FTS5's).
 */
export const m0101_content_grams_linear: Migration = {
  async up(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    await sql`create or replace function content_grams(k text) returns text[] language sql immutable strict parallel safe as $$
      select array(select distinct g from (
        select c as g from pg_catalog.unnest(pg_catalog.string_to_array(k, null)) as c
        union all
        select a operator(pg_catalog.||) b
        from rows from (pg_catalog.unnest(pg_catalog.string_to_array(k, null)), pg_catalog.unnest((pg_catalog.string_to_array(k, null))[2:])) as p(a, b)
        where b is not null
      ) as grams)
    $$`.execute(db);
    await sql`reindex index blob_texts_grams`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    await sql`create or replace function content_grams(k text) returns text[] language sql immutable strict parallel safe as $$
      select array(select distinct g from (
        select pg_catalog.substr(k, i, 1) as g from pg_catalog.generate_series(1, pg_catalog.length(k)) as i
        union all
        select pg_catalog.substr(k, i, 2) from pg_catalog.generate_series(1, pg_catalog.length(k) - 1) as i
      ) as grams)
    $$`.execute(db);
    await sql`reindex index blob_texts_grams`.execute(db);
  },
};
