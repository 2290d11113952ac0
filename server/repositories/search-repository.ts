import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database';
import { nameGramLookup } from '../db/dialect';
import { planEachTime } from '../db/pg-prepared';
import type { Database, FilesTable } from '../db/schema';

/** Which entries a search may return. */
export interface SearchScope {
  tenantId: string;
  /** The caller's personal entries (optionally of one category)... */
  ownerId: string | null;
  category: number | null;
  /** ...and/or entries of these spaces. */
  spaceIds: readonly string[];
}

/**
 * The entries a search may return (name and content search alike): the caller's personal entries
 * (of one category), and entries of the scope's spaces but their root folders. Live entries only is
 * the caller's condition. Columns are qualified so a query joining other tables uses it as it is.
 */
export function inSearchScope(eb: ExpressionBuilder<Database, 'files'>, scope: SearchScope) {
  const parts = [];
  if (scope.ownerId) {
    const own = [eb('files.owner_id', '=', scope.ownerId), eb('files.space_id', 'is', null)];
    if (scope.category !== null) own.push(eb('files.category', '=', scope.category));
    parts.push(eb.and(own));
  }
  // A space's root folder is the space itself, not a hit.
  if (scope.spaceIds.length > 0) parts.push(eb.and([eb('files.space_id', 'in', [...scope.spaceIds]), eb('files.parent_id', 'is not', null)]));
  return parts.length > 0 ? eb.or(parts) : eb.val(false);
}

/**
 * Name search. An infix match cannot seek in an index, so the query walks files_search
 * (tenant, sort_key, id, name_key; live rows only) in the listings' name order (pinyin, natural),
 * matches the keyword on the name key the index carries, and stops after one page: the cost is
 * bounded by how far the page's last hit is, never a sort of every match.
 */
export class SearchRepository {
  constructor(private readonly db: Db) {}

  search(scope: SearchScope, keyword: string, after: { key: string; id: string } | null, limit: number): Promise<FilesTable[]> {
    return this.searchQuery(scope, keyword, after, limit).execute();
  }

  /** The search query (tests check its plan). */
  searchQuery(scope: SearchScope, keyword: string, after: { key: string; id: string } | null, limit: number) {
    const key = keyword.toLowerCase();
    const pattern = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const lookup = nameGramLookup(this.db, key);
    let q = this.db
      .selectFrom('files')
      .selectAll()
      .where('tenant_id', '=', scope.tenantId)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`name_key like ${pattern} escape '\\'`)
      .$if(lookup !== null, (qb) => qb.where(lookup!))
      .where((eb) => inSearchScope(eb, scope));
    if (after) q = q.where((eb) => eb(eb.refTuple('sort_key', 'id'), '>', eb.tuple(after.key, after.id)));
    // The keyword decides the plan on PostgreSQL (trigram index or not): never a generic plan (db/pg-prepared.ts).
    return planEachTime(q.orderBy('sort_key').orderBy('id').limit(limit));
  }
}
