import { ERRORS } from '../../../common/api/errors';
import { byteVerdict, renditionOf, viewsOnly, type ByteGrant, type ByteUse, type ByteVerdict, type Rendition } from '../../../common/api/byte-access';
import { DOWNLOAD_CONFIRM_TTL_MS } from '../../../common/api/sharing';
import { FILE_CATEGORY } from '../../../common/api/types';
import type { ExchangeFilesTable, FilesTable, ShareLinksTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { ExchangeRepository } from '../../repositories/exchange-repository';
import type { Caller } from '../caller';
import type { EntryAccess } from '../space-access';
import type { SharingSecrets } from './sharing-secrets';

/**
 * The one decision of what a caller may do with a file's bytes (rules: common/api/byte-access.ts),
 * asked by every path that sends bytes (download, ZIP, version download, preview, thumbnail, a link's
 * preview, download ticket and its bytes) or takes them elsewhere (copy, saving a link's entries, the
 * sync listing's fingerprints), after access found the entry. Then the exchange area's crossing rule
 * (a file put in from one network build is usable from the other only once it passed checkSwap; an
 * intercepted one only from its own build, and downloaded only after keepOnDownload).
 */
export class ByteGate {
  constructor(
    private readonly exchange: ExchangeRepository,
    private readonly exchangeOn: (tenantId: string) => Promise<boolean>,
    private readonly secrets: SharingSecrets,
    /** The tenant's public space (null before its first use) and its publicDownLoad switch. */
    private readonly publicSpace: (tenantId: string) => Promise<{ spaceId: string | null; downloadOn: boolean }>,
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

  /**
   * Refuses a use the grants of these entries (reached through AccessService) do not allow:
   * SHARE_PREVIEW_ONLY through a 预览 share, FORBIDDEN where the grant never allows it.
   */
  assertGrants(entries: readonly Pick<EntryAccess, 'share'>[], use: ByteUse): void {
    for (const e of entries) refuseUnless(byteVerdict(grantOf(e), use), 'yes');
  }

  /**
   * A use of a link's entries: 'counted' when it takes one of the link's downloads (the caller claims
   * it), else 'yes'; refused through a preview-only link.
   */
  linkUse(link: Pick<ShareLinksTable, 'preview_only'>, use: ByteUse): 'yes' | 'counted' {
    const verdict = byteVerdict(linkGrant(link), use);
    refuseUnless(verdict, 'yes', 'counted');
    return verdict as 'yes' | 'counted';
  }

  /**
   * A download ticket's bytes: the ticket is the counted copy, and the link must still allow
   * downloads now (made preview-only after the ticket was issued: refused from the next request on).
   */
  assertTicket(link: Pick<ShareLinksTable, 'preview_only'>): void {
    this.linkUse(link, 'download');
    refuseUnless(byteVerdict({ via: 'ticket' }, 'download'), 'yes');
  }

  /** A thumbnail (a rendition of its own): whoever may view. */
  assertView(grant: ByteGrant): void {
    refuseUnless(byteVerdict(grant, 'view'), 'yes');
  }

  /**
   * What a preview of `name` shows to a caller with `grant` (renditionOf), or PREVIEW_UNSUPPORTED:
   * a preview is never an attachment of the original, for anyone. `noStore` where the grant allows
   * viewing only.
   */
  view(name: string, grant: ByteGrant): PreviewPlan {
    this.assertView(grant);
    const rendition = renditionOf(name, grant);
    if (!rendition) throw new AppError(ERRORS.PREVIEW_UNSUPPORTED);
    return { rendition, noStore: viewsOnly(grant) };
  }

  /** Content fingerprints go only to callers who may read the original (a 预览 share gets none). */
  mayReadOriginal(entry: Pick<EntryAccess, 'share'>): boolean {
    return byteVerdict(grantOf(entry), 'read') === 'yes';
  }

  /**
   * The publicDownLoad switch (common/api/tenant.ts): while it is off, the originals of the public
   * space's files do not leave it — no download, ZIP, version download, copy into another place
   * (`into`: the space the copy goes to; a copy inside the public space stays), nor a link's download
   * or save. Previews still work. Asked for members, admins and link visitors alike.
   */
  async assertPublicSpace(tenantId: string, rows: readonly Pick<FilesTable, 'space_id'>[], use: ByteUse, into?: string | null): Promise<void> {
    if (use !== 'read' && use !== 'download') return;
    const spaces = new Set(rows.map((r) => r.space_id).filter((id): id is string => id != null));
    if (spaces.size === 0) return;
    const { spaceId, downloadOn } = await this.publicSpace(tenantId);
    if (downloadOn || spaceId === null || !spaces.has(spaceId) || into === spaceId) return;
    throw new AppError(ERRORS.PUBLIC_DOWNLOAD_OFF);
  }

  /**
   * Exchange-area files among `rows` (files of a ZIP's or copy's trees included by the caller):
   * refuses what may not be used from the caller's build. `confirmed`: ids the caller confirmed
   * through keepOnDownload. The public space's rule (assertPublicSpace) is asked first, so every
   * path that takes bytes away asks both.
   */
  async assertExchange(caller: Caller, rows: readonly FilesTable[], use: ByteUse, confirmed: ReadonlySet<string> = new Set(), into?: string | null): Promise<void> {
    await this.assertPublicSpace(caller.tenantId, rows, use, into);
    const files = rows.filter((r) => r.category === FILE_CATEGORY.exchange && r.is_dir === 0 && r.space_id == null);
    if (files.length === 0) return;
    const records = await this.exchange.find(files.map((f) => f.id));
    let crossing = false;
    for (const f of files) {
      const verdict = crossingVerdict(records.get(f.id), f, caller.networkEnv);
      if (verdict === 'other-side') crossing = true;
      else if (verdict === 'not-passed') throw new AppError(ERRORS.EXCHANGE_NOT_PASSED);
      else if (verdict === 'flagged' && use !== 'view' && !confirmed.has(f.id)) throw new AppError(ERRORS.DOWNLOAD_CONFIRM_REQUIRED);
    }
    if (crossing && !(await this.exchangeOn(caller.tenantId))) throw new AppError(ERRORS.EXCHANGE_DISABLED);
  }

  async assert(caller: Caller, entries: readonly EntryAccess[], use: ByteUse, confirmed?: ReadonlySet<string>): Promise<void> {
    this.assertGrants(entries, use);
    await this.assertExchange(caller, entries.map((e) => e.row), use, confirmed);
  }
}

/** What a preview answers: the rendition, and whether it may be kept by the browser. */
export interface PreviewPlan {
  rendition: Rendition;
  noStore: boolean;
}

/** The grant an entry reached through AccessService carries: its share's permission, or the caller's own/space access. */
export function grantOf(entry: Pick<EntryAccess, 'share'>): ByteGrant {
  return entry.share ? { via: 'share', permission: entry.share.permission } : { via: 'own' };
}

export function linkGrant(link: Pick<ShareLinksTable, 'preview_only'>): ByteGrant {
  return { via: 'link', previewOnly: link.preview_only === 1 };
}

function refuseUnless(verdict: ByteVerdict, ...allowed: ByteVerdict[]): void {
  if (allowed.includes(verdict)) return;
  throw new AppError(verdict === 'view-only' ? ERRORS.SHARE_PREVIEW_ONLY : ERRORS.FORBIDDEN);
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
