import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { contentTextLookup, contentTextMatch, engineOf, RECENT_TEXTS_FIRST } from '../db/dialect';
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
  /** `recentFirst`: how many newest texts PostgreSQL reads before the index (tests make it small). */
  constructor(
    private readonly db: Db,
    private readonly recentFirst = RECENT_TEXTS_FIRST,
  ) {}

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
   * PostgreSQL: the tenant's RECENT_TEXTS_FIRST newest texts one by one, newest first (`strpos` of the
   * stored lowered text, ~6 µs a text), stopping at the page; only if the page is not full among them,
   * the index for the older ones. A bitmap of the index is every match, rechecked and sorted: for a
   * keyword in more than ~1% of the texts (图, report, 年度报告, annual report) thousands of rows, where
   * the newest texts fill its page at once; a rarer keyword's bitmap is small (measured in
   * docs/documents.md).
   */
  private async searchRecentFirst(scope: SearchScope, keyword: string, beforeDoc: number | null, limit: number): Promise<ContentMatchRow[]> {
    const floor = await this.db
      .selectFrom('blob_texts')
      .select('doc')
      .where('tenant_id', '=', scope.tenantId)
      .$if(beforeDoc !== null, (qb) => qb.where('doc', '<', beforeDoc!))
      .orderBy('doc', 'desc')
      .offset(this.recentFirst - 1)
      .limit(1)
      .executeTakeFirst();
    const floorDoc = floor ? Number(floor.doc) : null;
    const recent = sql<{ doc: number }>`(select t.doc as doc from blob_texts t
      where t.tenant_id = ${scope.tenantId} and t.doc >= ${floorDoc ?? 0} and ${contentTextMatch(keyword)})`;
    const rows = rowsOf(await this.pageQuery(scope, recent, beforeDoc, limit).execute());
    if (rows.length >= limit || floorDoc === null) return rows;
    const older = rowsOf(await this.pageQuery(scope, contentTextLookup(this.db, keyword)!, floorDoc, limit - rows.length).execute());
    return [...rows, ...older];
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
