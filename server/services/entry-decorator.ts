import type { FileEntry } from '../../common/api/types';
import { DEFAULT_SENSITIVE_KEYWORDS } from '../../common/transfer/checks';
import type { FilesTable } from '../db/schema';
import type { CheckRepository } from '../repositories/check-repository';
import type { FileRepository } from '../repositories/file-repository';
import type { ExchangeRepository } from '../repositories/exchange-repository';
import { FILE_CATEGORY } from '../../common/api/types';
import type { Caller } from './caller';
import { toFileEntry } from './file-service';

/**
 * Turns a page of rows into FileEntry values with every state the UI shows. Each fact is one
 * batched query for the whole page (favorites, version counts, lockers' names, the tenant's
 * sensitive keywords): never one query per row (field notes: Nextcloud #8977).
 */
export class EntryDecorator {
  constructor(
    private readonly files: FileRepository,
    private readonly checks: CheckRepository,
    private readonly retentionMs: number,
    /** Exchange-area files show their crossing state (sharing.ts ExchangeInfo). */
    private readonly exchange?: ExchangeRepository,
  ) {}

  async decorate(caller: Caller, rows: readonly FilesTable[], now = Date.now()): Promise<FileEntry[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const fileIds = rows.filter((r) => r.is_dir === 0).map((r) => r.id);
    // Lockers, and in spaces the owners (上传者): one name look-up for both.
    const people = [...new Set(rows.flatMap((r) => [r.locked_by, r.space_id ? r.owner_id : null]).filter((v): v is string => Boolean(v)))];
    const [favorites, versionCounts, nickNames, settings] = await Promise.all([
      this.files.favoriteIds(caller.userId, ids),
      this.files.versionCounts(fileIds),
      this.files.nickNames(people),
      this.checks.tenantSettings(caller.tenantId),
    ]);
    const facts = {
      favorites,
      versionCounts,
      nickNames,
      sensitiveKeywords: settings.sensitiveKeywords ?? DEFAULT_SENSITIVE_KEYWORDS,
      retentionMs: this.retentionMs,
      now,
    };
    const entries = rows.map((r) => {
      const entry = toFileEntry(r, facts);
      if (r.space_id) entry.owner = { id: r.owner_id, nickName: nickNames.get(r.owner_id) ?? '' };
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
