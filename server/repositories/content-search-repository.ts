import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { contentTextLookup, contentTextMatch, engineOf, RECENT_TEXTS_FIRST, RECENT_TEXTS_WALKED } from '../db/dialect';
import { planEachTime } from '../db/pg-prepared';
import type { FilesTable } from '../db/schema';
import { inSearchScope, type SearchScope } from './search-repository';

export type ContentMatchRow = FilesTable & { doc: number };

/**
 * Content search: the live files in the caller's search scope (exactly name search's,
 * search-repository.ts inSearchScope) whose blob's extracted text holds the keyword, newest text
 * first. The text index (dialect.ts contentTextLookup) drives the walk in doc order and each doc is
 * joined to the files that reference its blob, so a page stops after its rows: it costs what the
 * page's hits cost, not every match. PostgreSQL's indexes give no doc order: see searchRecentFirst.
 */
export class ContentSearchRepository {
  /**
   * PostgreSQL (see searchRecentFirst): `recentFirst` newest texts read one by one first, and up to
   * `walkedAtMost` when those hold the keyword, before the index (tests make them small).
   */
  private readonly walkedAtMost: number;
  constructor(
    private readonly db: Db,
    private readonly recentFirst = RECENT_TEXTS_FIRST,
    walkedAtMost = RECENT_TEXTS_WALKED,
  ) {
    this.walkedAtMost = Math.max(recentFirst, walkedAtMost);
  }

  /** Up to `limit` matching files with doc < `beforeDoc`; null when no text can hold the keyword. */
  async search(scope: SearchScope, keyword: string, beforeDoc: number | null, limit: number): Promise<ContentMatchRow[] | null> {
    if (engineOf(this.db) === 'postgres') return this.searchRecentFirst(scope, keyword, beforeDoc, limit);
    const q = this.searchQuery(scope, keyword, beforeDoc, limit);
    if (!q) return null;
    return rowsOf(await q.execute());
  }

  /** The search query (tests check its plan). */
  searchQuery(scope: SearchScope, keyword: string, beforeDoc: number | null, limit: number) {
    const source = contentTextLookup(this.db, keyword);
    return source ? this.pageQuery(scope, source, beforeDoc, limit) : null;
  }

  /**
   * PostgreSQL, whose indexes give no doc order: the tenant's newest texts one by one, newest first
   * (`strpos` of the stored lowered text, a few µs a text), each stage stopping at the page, and the
   * index only past them.
   *  1. The `recentFirst` newest: a common keyword fills its page here.
   *  2. Only if those held the keyword, on through the `walkedAtMost` newest: a keyword in ≥ 1% of the
   *     texts fills its page within them, where its index bitmap is thousands of texts to read and sort
   *     (年度报告, annual report). A keyword the newest do not hold skips this.
   *  3. The index for every older text (dialect.ts contentTextLookup): a keyword not filling its page
   *     among the newest is rare, so its bitmap is small.
   * Measured in docs/documents.md ("Search inside files" → PostgreSQL).
   */
  private async searchRecentFirst(scope: SearchScope, keyword: string, beforeDoc: number | null, limit: number): Promise<ContentMatchRow[]> {
    // Where the two walks end: the doc of the tenant's recentFirst-th and walkedAtMost-th newest text (null: fewer texts).
    const nth = (n: number) => sql<number | null>`(select doc from blob_texts where tenant_id = ${scope.tenantId}${
      beforeDoc !== null ? sql` and doc < ${beforeDoc}` : sql``
    } order by doc desc offset ${n - 1} limit 1)`;
    const ends = await sql<{ near: number | null; far: number | null }>`select ${nth(this.recentFirst)} as near, ${nth(this.walkedAtMost)} as far`.execute(this.db);
    const near = ends.rows[0]!.near === null ? null : Number(ends.rows[0]!.near);
    const far = ends.rows[0]!.far === null ? null : Number(ends.rows[0]!.far);
    const walk = (from: number | null, below: number | null) => sql<{ doc: number }>`(select t.doc as doc from blob_texts t
      where t.tenant_id = ${scope.tenantId}${from !== null ? sql` and t.doc >= ${from}` : sql``}${below !== null ? sql` and t.doc < ${below}` : sql``}
      and ${contentTextMatch(keyword)})`;
    const rows = rowsOf(await this.pageQuery(scope, walk(near, null), beforeDoc, limit).execute());
    if (rows.length >= limit || near === null) return rows;
    let below = near;
    if (rows.length > 0) {
      rows.push(...rowsOf(await this.pageQuery(scope, walk(far, near), null, limit - rows.length).execute()));
      if (rows.length >= limit || far === null) return rows;
      below = far;
    }
    rows.push(...rowsOf(await this.pageQuery(scope, contentTextLookup(this.db, keyword, { below })!, null, limit - rows.length).execute()));
    return rows;
  }

  /** The live files in the scope whose text is one of `source`'s docs below `beforeDoc`, newest text first. */
  private pageQuery(scope: SearchScope, source: RawBuilder<{ doc: number }>, beforeDoc: number | null, limit: number) {
    const q = this.db
      .selectFrom(source.as('m'))
      .innerJoin('blob_texts as bt', 'bt.doc', 'm.doc')
      .innerJoin('files', 'files.blob_id', 'bt.blob_id')
      .selectAll('files')
      .select('m.doc as doc')
      .where('bt.tenant_id', '=', scope.tenantId)
      .where('files.tenant_id', '=', scope.tenantId)
      .where('files.deleted_at', 'is', null)
      .where('files.is_dir', '=', 0)
      .where((eb) => inSearchScope(eb as never, scope))
      .$if(beforeDoc !== null, (qb) => qb.where('m.doc', '<', beforeDoc!))
      // Only the doc: FTS5 then hands its matches newest first and the walk stops after the page (a
      // second sort key makes SQLite sort every match first — a temp B-tree, seconds for a common word).
      .orderBy('m.doc', 'desc')
      .limit(limit);
    // The keyword decides the index on PostgreSQL: never a generic plan (db/pg-prepared.ts).
    return planEachTime(q);
  }
}

const rowsOf = (rows: Array<FilesTable & { doc: number | string }>): ContentMatchRow[] => rows.map((r) => ({ ...r, doc: Number(r.doc) }));
