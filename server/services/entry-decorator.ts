import type { FileEntry } from '../../common/api/types';
import { DEFAULT_SENSITIVE_KEYWORDS } from '../../common/transfer/checks';
import type { FilesTable } from '../db/schema';
import type { FileRepository } from '../repositories/file-repository';
import type { ContentTextRepository } from '../repositories/content-text-repository';
import type { ExchangeRepository } from '../repositories/exchange-repository';
import { FILE_CATEGORY } from '../../common/api/types';
import type { Caller } from './caller';
import { toFileEntry } from './file-service';
import type { TenantSettingsCache } from './tenant-settings-cache';

export interface DecorateOptions {
  now?: number;
  /**
   * The page's favorites when its query already read them (the folder list: FileRepository.list with
   * `favoritesOf`); otherwise they are read in one query for the page.
   */
  favorites?: ReadonlySet<string>;
}

/**
 * Turns a page of rows into FileEntry values with every state the UI shows. Each fact is one
 * batched query for the whole page (favorites, version counts, lockers' names), never one query per
 * row (field notes: Nextcloud #8977); the folder list reads its favorites in its page query, and the
 * tenant's sensitive keywords come from the per-process settings cache.
 */
export class EntryDecorator {
  constructor(
    private readonly files: FileRepository,
    /** The tenant's settings, cached per process (its sensitive keywords mark entries). */
    private readonly settings: TenantSettingsCache,
    private readonly retentionMs: number,
    /**
     * exchange: exchange-area files show their crossing state (sharing.ts ExchangeInfo);
     * contentTexts: keyword hits in the files' extracted texts mark entries 敏感 too.
     */
    private readonly marks: { exchange?: ExchangeRepository; contentTexts?: ContentTextRepository } = {},
  ) {}

  private get exchange(): ExchangeRepository | undefined {
    return this.marks.exchange;
  }

  private get contentTexts(): ContentTextRepository | undefined {
    return this.marks.contentTexts;
  }

  async decorate(caller: Caller, rows: readonly FilesTable[], options: DecorateOptions = {}): Promise<FileEntry[]> {
    if (rows.length === 0) return [];
    const now = options.now ?? Date.now();
    const ids = rows.map((r) => r.id);
    const fileIds = rows.filter((r) => r.is_dir === 0).map((r) => r.id);
    // Lockers, and in spaces the owners (上传者): one name look-up for both.
    const people = [...new Set(rows.flatMap((r) => [r.locked_by, r.space_id ? r.owner_id : null]).filter((v): v is string => Boolean(v)))];
    const [favorites, versionCounts, nickNames, settings] = await Promise.all([
      options.favorites ?? this.files.favoriteIds(caller.userId, ids),
      this.files.versionCounts(fileIds),
      this.files.nickNames(people),
      this.settings.get(caller.tenantId),
    ]);
    const facts = {
      favorites,
      versionCounts,
      nickNames,
      sensitiveKeywords: settings.sensitiveKeywords ?? DEFAULT_SENSITIVE_KEYWORDS,
      retentionMs: this.retentionMs,
      now,
    };
    const blobIds = [...new Set(rows.filter((r) => r.is_dir === 0 && r.blob_id).map((r) => r.blob_id!))];
    const contentHits = this.contentTexts && blobIds.length > 0 ? await this.contentTexts.hitsOf(blobIds, facts.sensitiveKeywords) : null;
    const entries = rows.map((r) => {
      const entry = toFileEntry(r, facts);
      if (r.space_id) entry.owner = { id: r.owner_id, nickName: nickNames.get(r.owner_id) ?? '' };
      const hit = r.blob_id ? contentHits?.get(r.blob_id)?.[0] : undefined;
      if (hit) {
        entry.sensitive = true;
        entry.sensitiveContent = { keyword: hit.keyword, page: hit.page };
      }
      return entry;
    });
    const exchangeIds = rows.filter((r) => r.category === FILE_CATEGORY.exchange && r.is_dir === 0 && r.space_id == null).map((r) => r.id);
    if (this.exchange && exchangeIds.length > 0) {
      const records = await this.exchange.find(exchangeIds);
      rows.forEach((r, i) => {
        const rec = records.get(r.id);
        if (!exchangeIds.includes(r.id)) return;
        // A record of other content (a new version since) is a crossing not checked yet.
        const current = rec && rec.blob_id === r.blob_id;
        entries[i]!.exchange = {
          side: rec?.side ?? caller.networkEnv,
          state: current ? rec.state : 'pending',
          reason: current ? rec.reason : null,
          checkedAt: current && rec.checked_at !== null ? Number(rec.checked_at) : null,
        };
      });
    }
    return entries;
  }

  async one(caller: Caller, row: FilesTable): Promise<FileEntry> {
    return (await this.decorate(caller, [row]))[0]!;
  }
}
