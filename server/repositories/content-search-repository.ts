import type { Db } from '../db/database';
import { contentTextLookup } from '../db/dialect';
import { planEachTime } from '../db/pg-prepared';
import type { FilesTable } from '../db/schema';
import { inSearchScope, type SearchScope } from './search-repository';

export type ContentMatchRow = FilesTable & { doc: number };

/**
 * Content search: the live files in the caller's search scope (exactly name search's,
 * search-repository.ts inSearchScope) whose blob's extracted text holds the keyword, newest text
 * first. The text index (dialect.ts contentTextLookup) drives the walk in doc order and each doc is
 * joined to the files that reference its blob, so a page stops after its rows: it costs what the
 * page's hits cost, not every match.
 */
export class ContentSearchRepository {
  constructor(private readonly db: Db) {}

  /** Up to `limit` matching files with doc < `beforeDoc`; null when no text can hold the keyword. */
  async search(scope: SearchScope, keyword: string, beforeDoc: number | null, limit: number): Promise<ContentMatchRow[] | null> {
    const q = this.searchQuery(scope, keyword, beforeDoc, limit);
    if (!q) return null;
    return (await q.execute()).map((r) => ({ ...r, doc: Number(r.doc) }));
  }

  /** The search query (tests check its plan). */
  searchQuery(scope: SearchScope, keyword: string, beforeDoc: number | null, limit: number) {
    const source = contentTextLookup(this.db, keyword);
    if (!source) return null;
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
