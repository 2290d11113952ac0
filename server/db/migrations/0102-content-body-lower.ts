import { sql, type Kysely, type Migration } from 'kysely';
import { engineOf } from '../dialect';

/**
 * PostgreSQL only: content search that costs a page, not every match (docs/documents.md, "Search inside
 * files" → PostgreSQL). Measured at 100k texts with EXPLAIN ANALYZE (docs/documents.md has the plans):
 *  - `body_lower`, the text lowered once when written (a stored generated column): reading a text for a
 *    keyword was `lower(body)` each time, ~60 µs a text; `strpos(body_lower, …)` ~6 µs. The content
 *    search now walks the tenant's newest texts this way and stops at a page, and every index's
 *    recheck reads it.
 *  - `content_junctions`: where the words of a text meet — for each run of ASCII white space, the last
 *    three characters before it, one space, the first three after (`annual report` → `ual rep`). A
 *    keyword of several words is looked up by its junctions (SQLite does the same with its trigram
 *    index, dialect.ts wordJunctions): pg_trgm's grams ignore word boundaries, so `quality data policy`
 *    had every text holding the three words as candidates (~35% of the texts, each rechecked).
 *  - The pg_trgm and character-gram indexes are rebuilt over `body_lower`, so their rechecks read it.
 * SQLite: nothing (FTS5 indexes, migration 0098).
 */
export const m0102_content_body_lower: Migration = {
  async up(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    // The indexes over lower(body) go first: adding the column rewrites the table and every index on it.
    await sql`drop index blob_texts_grams`.execute(db);
    await sql`drop index blob_texts_trgm`.execute(db);
    await sql`alter table blob_texts add column body_lower text generated always as (lower(body)) stored`.execute(db);
    // ASCII white space only, exactly the characters the keyword is split on (dialect.ts keywordJunctions).
    await sql`create function content_junctions(k text) returns text[] language sql immutable strict parallel safe as $$
      select array(select distinct pg_catalog.right(a, 3) operator(pg_catalog.||) ' ' operator(pg_catalog.||) pg_catalog.left(b, 3)
        from rows from (pg_catalog.unnest(w), pg_catalog.unnest(w[2:])) as p(a, b)
        where a operator(pg_catalog.<>) '' and b operator(pg_catalog.<>) '')
      from (select pg_catalog.regexp_split_to_array(k, '[' operator(pg_catalog.||) pg_catalog.chr(9) operator(pg_catalog.||) pg_catalog.chr(10)
        operator(pg_catalog.||) pg_catalog.chr(11) operator(pg_catalog.||) pg_catalog.chr(12) operator(pg_catalog.||) pg_catalog.chr(13)
        operator(pg_catalog.||) ' ]+') as w) as s
    $$`.execute(db);
    await sql`create index blob_texts_grams on blob_texts using gin (content_grams(body_lower))`.execute(db);
    await sql`create index blob_texts_trgm on blob_texts using gin (body_lower gin_trgm_ops)`.execute(db);
    await sql`create index blob_texts_junctions on blob_texts using gin (content_junctions(body_lower))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (engineOf(db) !== 'postgres') return;
    await sql`drop index blob_texts_junctions`.execute(db);
    await sql`drop index blob_texts_grams`.execute(db);
    await sql`drop index blob_texts_trgm`.execute(db);
    await sql`drop function content_junctions(text)`.execute(db);
    await sql`alter table blob_texts drop column body_lower`.execute(db);
    await sql`create index blob_texts_grams on blob_texts using gin (content_grams(lower(body)))`.execute(db);
    await sql`create index blob_texts_trgm on blob_texts using gin (lower(body) gin_trgm_ops)`.execute(db);
  },
};
