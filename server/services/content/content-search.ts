/**
 * Search inside files: the content hits of the unified search (search-service.ts), in the same scope
 * as its name hits. Each hit says where it matched: the page (paged texts) and a snippet as segments
 * the client marks (never HTML from the server).
 */
import { ERRORS } from '../../../common/api/errors';
import type { ContentSearchPage, SearchHit } from '../../../common/api/types';
import type { FilesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { ContentSearchRepository } from '../../repositories/content-search-repository';
import type { ContentTextRepository } from '../../repositories/content-text-repository';
import type { SearchScope } from '../../repositories/search-repository';
import { pageOf, snippetOf } from './text-scan';

export class ContentSearch {
  constructor(
    private readonly search: ContentSearchRepository,
    private readonly texts: ContentTextRepository,
  ) {}

  /** One page of content hits; `describe` turns the page's rows into search hits (entries, paths). */
  async page(scope: SearchScope, keyword: string, cursor: string | undefined, pageSize: number, describe: (rows: FilesTable[]) => Promise<SearchHit[]>): Promise<ContentSearchPage> {
    const before = cursor ? decodeContentCursor(cursor) : null;
    const rows = await this.search.search(scope, keyword, before, pageSize + 1);
    if (!rows || rows.length === 0) return { items: [], nextCursor: null };
    let page = rows;
    let nextCursor: string | null = null;
    if (rows.length > pageSize) {
      // Pages end between texts (the cursor is a doc): the files of the text that did not fit wait
      // for the next page — unless one text alone fills the page, which then ends with it.
      const cut = rows[pageSize]!.doc;
      page = rows.slice(0, pageSize).filter((r) => r.doc !== cut);
      if (page.length === 0) page = rows.filter((r) => r.doc === cut).slice(0, pageSize);
      nextCursor = encodeContentCursor(page[page.length - 1]!.doc);
    }
    const texts = await this.texts.texts([...new Set(page.map((r) => r.blob_id!))]);
    const hits = await describe(page.map(({ doc: _doc, ...row }) => row));
    const items = hits.flatMap((hit, i) => {
      const text = texts.get(page[i]!.blob_id!);
      const found = text ? snippetOf(text.body, keyword) : null;
      // Gone or replaced since the query (or a match the index found but the text does not hold): no hit.
      if (!text || !found) return [];
      return [{ ...hit, match: { page: pageOf(text.pageStarts, found.at), snippet: found.segments } }];
    });
    return { items, nextCursor };
  }
}

const encodeContentCursor = (doc: number): string => Buffer.from(`c${doc}`).toString('base64url');

function decodeContentCursor(cursor: string): number {
  const raw = Buffer.from(cursor, 'base64url').toString('utf8');
  const doc = /^c(\d{1,15})$/.exec(raw)?.[1];
  if (doc === undefined) throw new AppError(ERRORS.VALIDATION, '分页游标无效');
  return Number(doc);
}
