/**
 * Where SQLite and PostgreSQL differ, in one place. Repositories and migrations write portable SQL
 * through Kysely; the few statements that cannot be the same on both engines ask this module.
 *
 * Already the same on both, so not here: `text`/`integer`/`bigint` columns (integers come back as
 * numbers on both: db/postgres.ts sets the type parsers), `insert … on conflict … do update/nothing`
 * (Kysely's onConflict), `returning`, partial indexes, row-value comparisons `(a, b) < (x, y)`,
 * recursive CTEs, `like … escape '\'` on lower-cased keys (SQLite's LIKE ignores ASCII case,
 * PostgreSQL's does not: every LIKE in the code compares a lower-cased column with a lower-cased
 * pattern, so both engines answer the same), `case when` instead of SQLite's two-argument max/min.
 */
import { PostgresAdapter, sql, type QueryExecutorProvider, type RawBuilder } from 'kysely';

export type DbEngine = 'sqlite' | 'postgres';

/** Which engine a Kysely instance (or transaction, or connection) runs on. */
export function engineOf(db: QueryExecutorProvider): DbEngine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * Runs an SQLite-only tuning statement (a PRAGMA); PostgreSQL has no equivalent that matters for
 * correctness (its durability is the server's, its foreign keys are checked at statement end).
 */
export async function sqliteOnly(db: QueryExecutorProvider, statement: RawBuilder<unknown>): Promise<void> {
  if (engineOf(db) === 'sqlite') await statement.execute(db);
}

/**
 * Refreshes the planner's statistics of a table: SQLite samples (`analysis_limit`, so it stays cheap
 * on a big table), PostgreSQL's ANALYZE samples by itself.
 */
export async function analyzeTable(db: QueryExecutorProvider, table: string): Promise<void> {
  if (engineOf(db) === 'sqlite') await sql`pragma analysis_limit = 1000`.execute(db);
  await sql`analyze ${sql.table(table)}`.execute(db);
}

/**
 * Text columns whose order must be byte order (the keyset pages' sort keys, built in
 * common/files/name-sort-key.ts to compare byte by byte): SQLite's default BINARY collation is byte
 * order; on PostgreSQL the database's collation (often en_US.UTF-8) is not, so these columns get
 * `COLLATE "C"` (migration 0085).
 */
export const BYTE_ORDER_COLUMNS: ReadonlyArray<{ table: string; column: string }> = [
  { table: 'files', column: 'sort_key' },
  { table: 'files', column: 'name_key' },
];

/** `max(0, x)` — SQLite's two-argument max is PostgreSQL's greatest(); a CASE is the same on both. */
export const notBelowZero = (x: RawBuilder<number> | RawBuilder<unknown>): RawBuilder<number> =>
  sql<number>`(case when ${x} > 0 then ${x} else 0 end)`;

/**
 * The order of a recursive walk's rows (`with recursive tree(…, depth)`): SQLite returns them in its
 * queue's order, breadth first, parents before children, and callers rely on that order (sync
 * versions hash the rows as they come); PostgreSQL promises no order once the walk is joined, so
 * there the walk is ordered by depth, then id.
 */
export const recursiveWalkOrder = (db: QueryExecutorProvider): RawBuilder<unknown> =>
  engineOf(db) === 'postgres' ? sql`order by depth, id` : sql``;

/**
 * A read of rows this transaction is about to change: `for update` on PostgreSQL, where transactions
 * of other processes run side by side (one that wants the same rows waits, then reads them as they
 * were committed, and skips those deleted meanwhile); as it is on SQLite, whose write transactions
 * run one at a time.
 */
export function forUpdate<Q extends { forUpdate(): Q }>(db: QueryExecutorProvider, query: Q): Q {
  return engineOf(db) === 'postgres' ? query.forUpdate() : query;
}

/**
 * PostgreSQL's lookup of `file_name_grams` (GIN index files_name_grams, migration 0089: a name's
 * characters and pairs of adjacent characters) for a keyword search (`name_key like '%k%'`), or null
 * where the trigram index of 0086 serves the keyword. Only a filter the planner can read an index
 * for: the LIKE beside it still decides, so the rows are the same on both engines. Null on SQLite (it
 * walks files_search in name order). `keyword` is lower-cased as name_key is.
 *  - One or two characters (合同, 图): no trigram at all; the name must hold the keyword itself.
 *  - Three or more with a character outside ASCII (年度报告, q3总, 😀笑脸): the name must hold every
 *    adjacent pair of the keyword. pg_trgm takes a non-ASCII character for a word character only
 *    under a UTF-8 LC_CTYPE; under "C" (a common initdb default) `show_trgm('年度报告')` is empty and
 *    the trigram index cannot narrow the search (a Seq Scan or a walk of the tenant). The pairs do
 *    not depend on the locale, and cost about what the trigrams cost where those work
 *    (docs/postgresql.md).
 *  - Three or more ASCII characters holding a run of three letters or digits (report, name 4711):
 *    pg_trgm extracts that run's trigrams under every locale, and they are more selective than pairs.
 *  - Other ASCII keywords of three or more (a.b, ---): pairs, as pg_trgm may extract no trigram.
 */
export function nameGramLookup(db: QueryExecutorProvider, keyword: string): RawBuilder<boolean> | null {
  if (engineOf(db) !== 'postgres') return null;
  const chars = [...keyword];
  if (chars.length <= 2) return sql<boolean>`file_name_grams(name_key) @> array[${keyword}::text]`;
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(keyword) && /[a-z0-9]{3}/i.test(keyword)) return null;
  const pairs = [...new Set(chars.slice(1).map((c, i) => chars[i]! + c))];
  return sql<boolean>`file_name_grams(name_key) @> array[${sql.join(pairs.map((p) => sql`${p}::text`))}]`;
}

/**
 * The docs of `blob_texts` whose text holds `keyword` (case-insensitively), as a subquery of one
 * column `doc` that the content search joins and walks newest first (content-search-repository.ts);
 * null when no text can hold it (a keyword of one or two characters without a letter or digit, on
 * SQLite). Measured and explained in docs/documents.md ("Search inside files"); the indexes are
 * migration 0098's.
 *  - SQLite, 3+ characters: the FTS5 trigram index (`blob_text_trigrams`), a phrase query — exact
 *    substring match, Unicode case folded; FTS5 walks it in rowid order, so a page stops early. Words
 *    joined by spaces (annual report) match their junctions instead (`wordJunctions`), the text
 *    itself deciding: 11 trigrams' positions per text were 10 ms of a 21-row page, the junction 1 ms.
 *  - SQLite, 1–2 characters (合同, 图 — the common Chinese keyword): trigrams cannot match them (a
 *    LIKE would read every text), so the contentless single-character index (`blob_text_chars`, CJK
 *    characters one token each): a phrase of the keyword's characters, the last word as a prefix
 *    (`ab` finds words that start with ab — on both engines: a one- or two-letter
 *    substring is in nearly every English text), then the text itself must hold the keyword.
 *  - PostgreSQL (migration 0102's stored lowered text `body_lower`; every index over it): a keyword of
 *    several words by where its words meet (`content_junctions`, `keywordJunctions`); else an ASCII
 *    keyword holding a run of three letters or digits by pg_trgm's index (under every locale); else the
 *    GIN index of each text's characters and adjacent pairs (`content_grams`, the names' scheme of
 *    0089: pg_trgm extracts no trigram from CJK under LC_CTYPE=C). The text decides in every case
 *    (`contentTextMatch`). A bitmap of every match below `range.below`, sorted: the repository walks the
 *    newest texts first and asks this only past them (RECENT_TEXTS_FIRST).
 */
export function contentTextLookup(db: QueryExecutorProvider, keyword: string, range: DocRange = {}): RawBuilder<{ doc: number }> | null {
  const chars = [...keyword];
  if (engineOf(db) === 'postgres') {
    const junctions = keywordJunctions(keyword);
    // eslint-disable-next-line no-control-regex
    const trigrams = chars.length >= 3 && /^[\x00-\x7f]*$/.test(keyword) && /[a-z0-9]{3}/i.test(keyword);
    // The text decides (`contentTextMatch`), except where pg_trgm's LIKE, rechecked on the text, already does.
    let candidates: RawBuilder<boolean> = contentTextMatch(keyword);
    if (junctions) {
      // Words joined by white space: where they meet (`ual rep`), migration 0102's index. Alone: ANDed with
      // pg_trgm's lossy bitmap, every candidate's junctions would be computed again in the recheck.
      const grams = sql.join(junctions.map(([a, b]) => sql`pg_catalog.right(lower(${a}::text), 3) || ' ' || pg_catalog.left(lower(${b}::text), 3)`));
      candidates = sql<boolean>`content_junctions(t.body_lower) @> array[${grams}]::text[] and ${candidates}`;
    } else if (trigrams) {
      candidates = sql<boolean>`t.body_lower like lower(${likePattern(keyword)}) escape '\\'`;
    } else {
      candidates = sql<boolean>`content_grams(t.body_lower) @> content_grams(lower(${keyword}::text)) and ${candidates}`;
    }
    // `offset 0`: planned on its own, for every match (a bitmap of one GIN index), never as a walk of the
    // texts newest first computing the index's expression for each: the repository asks this only past
    // the newest texts (RECENT_TEXTS_FIRST), where the keyword is known to be rare.
    // The bound goes inside (`offset 0` keeps a condition outside from being pushed in), and so does the
    // order: the page's joins then stop at its rows instead of joining every match before sorting.
    const bounds = range.below != null ? sql`t.doc < ${range.below} and ${candidates}` : candidates;
    return sql<{ doc: number }>`(select t.doc as doc from blob_texts t where ${bounds} order by t.doc desc offset 0)`;
  }
  if (chars.length >= 3) {
    const junctions = wordJunctions(keyword);
    if (junctions && CASELESS_BEYOND_ASCII(keyword)) {
      // Words joined by spaces (annual report): their junctions (al re) are far rarer than the words, and
      // a phrase of every trigram makes FTS5 check the positions of all of them in each text holding the
      // words (most texts, for common words); the text itself then decides (SQLite's lower() folds
      // ASCII, which is all this keyword has a case in: the same texts as the phrase).
      const match = junctions.map(phraseOf).join(' AND ');
      return sql<{ doc: number }>`(select blob_text_trigrams.rowid as doc from blob_text_trigrams join blob_texts t on t.doc = blob_text_trigrams.rowid
        where blob_text_trigrams match ${match} and instr(lower(t.body), ${keyword.toLowerCase()}) > 0)`;
    }
    return sql<{ doc: number }>`(select rowid as doc from blob_text_trigrams where blob_text_trigrams match ${phraseOf(keyword)})`;
  }
  const tokens = charTokens(keyword).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (tokens.length === 0) return null;
  // A single CJK character is a whole token; a word may go on (ab → about).
  const prefix = !SPACELESS_CHAR.test(tokens[tokens.length - 1]!);
  const match = `"${tokens.join(' ')}"${prefix ? '*' : ''}`;
  return sql<{ doc: number }>`(select c.rowid as doc from blob_text_chars c join blob_texts t on t.doc = c.rowid
    where blob_text_chars match ${match} and instr(lower(t.body), ${keyword.toLowerCase()}) > 0)`;
}

/** Docs below `below` (PostgreSQL's content lookup; all when null or absent). */
export interface DocRange {
  below?: number | null;
}

/**
 * PostgreSQL: the texts the content search reads one by one, newest first (content-search-repository.ts):
 * `strpos` of the stored lowered text (migration 0102), a few µs a text. RECENT_TEXTS_FIRST always (a
 * keyword in ≥ 10% of the texts fills its 21-row page among them); on through RECENT_TEXTS_WALKED only
 * when those held the keyword (≥ 1% fills it there: 年度报告 in 3%, annual report in 2%, whose index
 * bitmaps are thousands of texts to read and sort). A keyword the first ones do not hold goes to the
 * index at once: it is rare, its bitmap small. Reading 2,000 for every keyword (0102) cost every rare
 * or absent keyword ~12 ms (docs/documents.md).
 */
export const RECENT_TEXTS_FIRST = 200;
export const RECENT_TEXTS_WALKED = 2000;

/**
 * PostgreSQL: whether the text holds `keyword`, read from its stored lowered copy (`t.body_lower`) alone:
 * its place in it, or for one or two ASCII letters or digits the words that start with them, as on
 * SQLite. PostgreSQL lowers the keyword as it lowered the text.
 */
export function contentTextMatch(keyword: string): RawBuilder<boolean> {
  if (SHORT_WORD.test(keyword)) return sql<boolean>`t.body_lower ~ ${`(^|[^[:alnum:]])${keyword.toLowerCase()}`}`;
  return sql<boolean>`strpos(t.body_lower, lower(${keyword}::text)) > 0`;
}

const likePattern = (keyword: string): string => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** ASCII white space: what PostgreSQL's content_junctions splits a text on (migration 0102). */
const JUNCTION_SPACE = /[\t\n\v\f\r ]+/;

/**
 * PostgreSQL: the junctions of `keyword` that every text holding it has among its content_junctions
 * (migration 0102), as pairs (the part before the white space, the part after), each side lowered and
 * cut to three characters by PostgreSQL; null when there is none. A side is known when it is a whole
 * word inside the keyword, or has three characters or more (`nual report` → `ual rep`; `l report`
 * has none: the text's word may be longer on the left).
 */
export function keywordJunctions(keyword: string): Array<[string, string]> | null {
  const parts = keyword.split(JUNCTION_SPACE);
  const known = (i: number): boolean => parts[i] !== '' && ((i > 0 && i < parts.length - 1) || [...parts[i]!].length >= 3);
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < parts.length; i++) if (known(i) && known(i + 1)) pairs.push([parts[i]!, parts[i + 1]!]);
  return pairs.length > 0 ? pairs : null;
}

/** An FTS5 phrase of `text` (a substring, for the trigram tokenizer). */
const phraseOf = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/**
 * The places where a keyword's words meet: each run of white space inside it with up to two
 * characters either side (`annual report` → `al re`), or null for a keyword of one word (or one
 * junction that is the whole keyword). Every window is a substring of the keyword, so a text holding
 * the keyword holds them all; each is 3+ characters, so it has trigrams.
 */
export function wordJunctions(keyword: string): string[] | null {
  const chars = [...keyword];
  const windows: string[] = [];
  for (let i = 0; i < chars.length; ) {
    if (!/\s/u.test(chars[i]!)) {
      i++;
      continue;
    }
    let end = i;
    while (end < chars.length && /\s/u.test(chars[end]!)) end++;
    if (i > 0 && end < chars.length) windows.push(chars.slice(Math.max(0, i - 2), Math.min(chars.length, end + 2)).join(''));
    i = end;
  }
  if (windows.length === 0 || (windows.length === 1 && windows[0] === keyword)) return null;
  return [...new Set(windows)];
}

/** No character with a case outside ASCII: SQLite's lower() then lowers the keyword as FTS5 folds it. */
const CASELESS_BEYOND_ASCII = (keyword: string): boolean => [...keyword].every((c) => c.charCodeAt(0) < 0x80 || c.toLowerCase() === c.toUpperCase());

/** A keyword of one or two ASCII letters or digits: found at the start of words (re → report, not here). */
const SHORT_WORD = /^[a-z0-9]{1,2}$/i;

/** One character of the scripts written without spaces between words (Han, kana, Hangul, Thai). */
const SPACELESS_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]$/u;

/**
 * Sets every character of the scripts written without spaces apart, so that SQLite's unicode61
 * tokenizer makes each one a token: what `blob_text_chars` indexes (the repository writes it) and how
 * a short keyword is split for it. Other text stays as it is (its words are tokens).
 */
export function charTokens(text: string): string {
  return text.replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu, ' $& ');
}
