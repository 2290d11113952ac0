import type { FileEntry } from '../../common/api/types';
import { DEFAULT_SENSITIVE_KEYWORDS } from '../../common/transfer/checks';
import type { FilesTable } from '../db/schema';
import type { CheckRepository } from '../repositories/check-repository';
import type { FileRepository } from '../repositories/file-repository';
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
  ) {}

  async decorate(caller: Caller, rows: readonly FilesTable[], now = Date.now()): Promise<FileEntry[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const fileIds = rows.filter((r) => r.is_dir === 0).map((r) => r.id);
    const lockers = [...new Set(rows.map((r) => r.locked_by).filter((v): v is string => Boolean(v)))];
    const [favorites, versionCounts, nickNames, settings] = await Promise.all([
      this.files.favoriteIds(caller.userId, ids),
      this.files.versionCounts(fileIds),
      this.files.nickNames(lockers),
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
    return rows.map((r) => toFileEntry(r, facts));
  }

  async one(caller: Caller, row: FilesTable): Promise<FileEntry> {
    return (await this.decorate(caller, [row]))[0]!;
  }
}
