import { ERRORS } from '../../../common/api/errors';
import { DOWNLOAD_CONFIRM_TTL_MS, SHARE_PERMISSION_RANK } from '../../../common/api/sharing';
import { FILE_CATEGORY } from '../../../common/api/types';
import type { ExchangeFilesTable, FilesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { ExchangeRepository } from '../../repositories/exchange-repository';
import type { Caller } from '../caller';
import type { EntryAccess } from '../space-access';
import type { SharingSecrets } from './sharing-secrets';

/** What a call does with content: preview shows it; download, copy and move take it away. */
export type ContentUse = 'preview' | 'download' | 'copy';

/**
 * The checks on content every path that hands out bytes (download, ZIP, version download, preview,
 * thumbnail) or takes them elsewhere (copy, move) runs after access: the share's permission
 * (sharing.ts: preview-only refuses all but preview) and the exchange area's crossing rule (a file
 * put in from one network build is usable from the other only once it passed checkSwap; an
 * intercepted one only from its own build, and downloaded only after keepOnDownload).
 */
export class ContentGate {
  constructor(
    private readonly exchange: ExchangeRepository,
    private readonly exchangeOn: (tenantId: string) => Promise<boolean>,
    private readonly secrets: SharingSecrets,
  ) {}

  /** keepOnDownload's confirmation: the caller may download this flagged file once within DOWNLOAD_CONFIRM_TTL_MS. */
  confirmToken(caller: Caller, fileId: string, now = Date.now()): string {
    return this.secrets.sign(['dl', caller.userId, fileId, String(now + DOWNLOAD_CONFIRM_TTL_MS)]);
  }

  /** The file a confirmation token confirms for this caller (none when forged, another's, or expired). */
  confirmed(caller: Caller, token: string | undefined, now = Date.now()): ReadonlySet<string> {
    if (!token) return new Set();
    const parts = this.secrets.verify(token, 4);
    if (!parts || parts[0] !== 'dl' || parts[1] !== caller.userId || Number(parts[3]) < now) return new Set();
    return new Set([parts[2]!]);
  }

  /** Preview-only shares allow preview and nothing else. */
  assertShares(entries: readonly Pick<EntryAccess, 'share'>[], use: ContentUse): void {
    if (use === 'preview') return;
    for (const e of entries) if (e.share && SHARE_PERMISSION_RANK[e.share.permission] < SHARE_PERMISSION_RANK.download) throw new AppError(ERRORS.SHARE_PREVIEW_ONLY);
  }

  /**
   * Exchange-area files among `rows` (files of a ZIP's or copy's trees included by the caller):
   * refuses what may not be used from the caller's build. `confirmed`: ids the caller confirmed
   * through keepOnDownload.
   */
  async assertExchange(caller: Caller, rows: readonly FilesTable[], use: ContentUse, confirmed: ReadonlySet<string> = new Set()): Promise<void> {
    const files = rows.filter((r) => r.category === FILE_CATEGORY.exchange && r.is_dir === 0 && r.space_id == null);
    if (files.length === 0) return;
    const records = await this.exchange.find(files.map((f) => f.id));
    let crossing = false;
    for (const f of files) {
      const verdict = crossingVerdict(records.get(f.id), f, caller.networkEnv);
      if (verdict === 'other-side') crossing = true;
      else if (verdict === 'not-passed') throw new AppError(ERRORS.EXCHANGE_NOT_PASSED);
      else if (verdict === 'flagged' && use !== 'preview' && !confirmed.has(f.id)) throw new AppError(ERRORS.DOWNLOAD_CONFIRM_REQUIRED);
    }
    if (crossing && !(await this.exchangeOn(caller.tenantId))) throw new AppError(ERRORS.EXCHANGE_DISABLED);
  }

  async assert(caller: Caller, entries: readonly EntryAccess[], use: ContentUse, confirmed?: ReadonlySet<string>): Promise<void> {
    this.assertShares(entries, use);
    await this.assertExchange(caller, entries.map((e) => e.row), use, confirmed);
  }
}

/**
 * - 'own-side': put in from the caller's build (and not flagged);
 * - 'flagged': from the caller's build, intercepted by checkSwap;
 * - 'other-side': from the other build and passed (usable while the exchange is on);
 * - 'not-passed': from the other build and not passed, or not known (no record for this content).
 */
export function crossingVerdict(record: ExchangeFilesTable | undefined, file: Pick<FilesTable, 'blob_id'>, side: string): 'own-side' | 'flagged' | 'other-side' | 'not-passed' {
  if (!record || record.blob_id !== file.blob_id) return 'not-passed';
  if (record.side === side) return record.state === 'intercepted' ? 'flagged' : 'own-side';
  return record.state === 'passed' ? 'other-side' : 'not-passed';
}
