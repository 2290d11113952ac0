/**
 * Where a document preview opens: at a page, with a term looked for (统一搜索's content hits open the
 * preview at the page their match is on, the term highlighted). Both optional: a plain click opens at
 * page 1 with the find bar closed.
 *
 * The file pages pass it as `PreviewModal`'s `at` prop (BrowserDialog `{ kind: 'preview', file, at }`);
 * in an address it is `?page=<n>&term=<text>` (documentTargetOf / documentTargetQuery).
 */
export interface DocumentTarget {
  /** 1-based page number; past the last page opens the last one. */
  page?: number;
  /** Text the find bar opens with, its hits highlighted, the first one at or after `page` shown. */
  term?: string;
}

/** The target an address's query names (`page`, `term`), or null when it names none. */
export function documentTargetOf(params: URLSearchParams): DocumentTarget | null {
  const page = Number(params.get('page'));
  const term = params.get('term')?.trim() ?? '';
  const target: DocumentTarget = {};
  if (Number.isInteger(page) && page >= 1) target.page = page;
  if (term) target.term = term;
  return target.page || target.term ? target : null;
}

/** The query (`page=3&term=…`, no leading `?`) that names `target`. */
export function documentTargetQuery(target: DocumentTarget): string {
  const params = new URLSearchParams();
  if (target.page && target.page >= 1) params.set('page', String(Math.floor(target.page)));
  if (target.term?.trim()) params.set('term', target.term.trim());
  return params.toString();
}
