import { ERRORS } from '../../common/api/errors';
import type { KeywordSearchQuery, UnifiedSearchQuery } from '../../common/api/endpoints/files';
import type { SearchHit, SearchResponse } from '../../common/api/types';
import { CONTENT_PAGE_SIZE, FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE, FILE_CATEGORY } from '../../common/api/types';
import type { FilesTable } from '../db/schema';
import { AppError } from '../http/app-error';
import type { FileRepository } from '../repositories/file-repository';
import type { SearchRepository, SearchScope } from '../repositories/search-repository';
import type { SpaceRepository } from '../repositories/space-repository';
import type { Caller } from './caller';
import type { ContentSearch } from './content/content-search';
import type { EntryDecorator } from './entry-decorator';
import type { AccessService } from './space-access';

export interface SearchServiceDeps {
  repo: SearchRepository;
  files: FileRepository;
  spaces: SpaceRepository;
  access: AccessService;
  decorator: EntryDecorator;
  /** Content hits of the unified search (search inside files). */
  content: ContentSearch;
}

/** Keyword search in one category or space, and unified search across every space the caller may see. */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async keyword(caller: Caller, q: KeywordSearchQuery): Promise<SearchResponse> {
    if (q.spaceId) {
      const { space } = await this.deps.access.space(caller, q.spaceId);
      return this.run(caller, q, { tenantId: caller.tenantId, ownerId: null, category: null, spaceIds: [space.id] });
    }
    return this.run(caller, q, { tenantId: caller.tenantId, ownerId: caller.userId, category: q.category ?? FILE_CATEGORY.personal, spaceIds: [] });
  }

  /**
   * Every space the caller may see. The first page (no cursor) answers the name hits and the first
   * page of content hits, in the same scope; `cursor` pages answer names only, `contentCursor` pages
   * content only.
   */
  async unified(caller: Caller, q: UnifiedSearchQuery): Promise<SearchResponse> {
    const groups =
      caller.role === 'admin'
        ? (await this.deps.spaces.listGroups(caller.tenantId, caller.userId, true)).map((s) => s.id)
        : await this.deps.spaces.groupIdsOf(caller.tenantId, caller.userId);
    const pub = await this.deps.spaces.findPublic(caller.tenantId);
    const spaceIds = pub ? [pub.id, ...groups] : groups;
    const scope: SearchScope = { tenantId: caller.tenantId, ownerId: caller.userId, category: null, spaceIds };
    const keyword = this.keywordOf(q);
    // Content hits carry a snippet each and cost a text read: pages of CONTENT_PAGE_SIZE unless asked for fewer.
    const contentPageSize = Math.min(q.pageSize ?? CONTENT_PAGE_SIZE, CONTENT_PAGE_SIZE);
    const content = () => this.deps.content.page(scope, keyword, q.contentCursor, contentPageSize, (rows) => this.hits(caller, rows));
    if (q.contentCursor) return { items: [], nextCursor: null, content: await content() };
    const names = await this.run(caller, q, scope);
    return q.cursor ? names : { ...names, content: await content() };
  }

  private keywordOf(q: KeywordSearchQuery): string {
    const keyword = q.keyword.trim();
    if (keyword.length === 0) throw new AppError(ERRORS.VALIDATION, '请输入搜索关键字');
    return keyword;
  }

  private pageSizeOf(q: KeywordSearchQuery): number {
    return Math.min(q.pageSize ?? FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE);
  }

  private async run(caller: Caller, q: KeywordSearchQuery, scope: SearchScope): Promise<SearchResponse> {
    const keyword = this.keywordOf(q);
    const pageSize = this.pageSizeOf(q);
    const rows = await this.deps.repo.search(scope, keyword, q.cursor ? decodeCursor(q.cursor) : null, pageSize + 1);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const nextCursor = rows.length > pageSize && last ? Buffer.from(JSON.stringify([last.sort_key, last.id])).toString('base64url') : null;
    return { items: await this.hits(caller, page), nextCursor };
  }

  /** Entries plus their folder paths and space names: two queries for the whole page. */
  private async hits(caller: Caller, rows: FilesTable[]): Promise<SearchHit[]> {
    const entries = await this.deps.decorator.decorate(caller, rows);
    const parents = [...new Set(rows.map((r) => r.parent_id).filter((p): p is string => p !== null))];
    const [paths, spaceNames] = await Promise.all([
      this.deps.files.pathsOf(caller.tenantId, parents),
      this.deps.spaces.names(caller.tenantId, [...new Set(rows.map((r) => r.space_id).filter((s): s is string => Boolean(s)))]),
    ]);
    return entries.map((e, i) => {
      const row = rows[i]!;
      const chain = row.parent_id ? (paths.get(row.parent_id) ?? []) : [];
      // In a space the first folder is the space's root: named by spaceName instead.
      const names = (row.space_id ? chain.slice(1) : chain).map((p) => p.name);
      return { ...e, path: names, spaceName: row.space_id ? (spaceNames.get(row.space_id) ?? null) : null };
    });
  }
}

function decodeCursor(cursor: string): { key: string; id: string } {
  try {
    const d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(d) && typeof d[0] === 'string' && typeof d[1] === 'string') return { key: d[0], id: d[1] };
  } catch {
    // fall through
  }
  throw new AppError(ERRORS.VALIDATION, '分页游标无效');
}
