import { randomBytes } from 'node:crypto';
import { ERRORS } from '../../../common/api/errors';
import { API } from '../../../common/api/paths';
import { LINK_TICKET_TTL_MS, LINK_VISIT_TTL_MS, type LinkDownloadResponse, type LinkEntry, type LinkListResponse, type LinkOpenResponse, type LinkSaveResponse, type LinkSummary } from '../../../common/api/sharing';
import type { LinkDownloadRequest, LinkListRequest, LinkOpenRequest, LinkSaveRequest, LinkSummaryRequest } from '../../../common/api/endpoints/links';
import { viewsOnly } from '../../../common/api/byte-access';
import { fileKindOf } from '../../../common/files/kind';
import type { FilesTable, ShareLinksTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { FileRepository } from '../../repositories/file-repository';
import type { LinkRepository } from '../../repositories/link-repository';
import type { ShareGrantRepository } from '../../repositories/share-grants';
import { actionLog, fileTarget, target, type Actor } from '../action-log/recorder';
import { PLATFORM_TENANT } from '../action-log/recorder';
import { hasThumbnail, type ArchiveService, type ZipPlan } from '../archive-service';
import type { Caller } from '../caller';
import type { Downloadable, DownloadService, Preview } from '../download-service';
import type { CopyMoveService } from '../copy-move-service';
import { linkGrant, type ByteGate } from './byte-gate';
import type { LinkThrottle } from './link-throttle';
import type { ShareEvents } from './share-events';
import { pageSizeOf } from './share-service';
import { sameCode, SharingSecrets } from './sharing-secrets';
import { watermarkText } from './watermark-text';

/** Who visits: a session (any tenant's, or none) and the client address. */
export interface Visitor {
  caller: Caller | null;
  address: string;
}

/** An opened link, checked again on every call (revocation, expiry, a changed code hold at once). */
interface OpenLink {
  link: ShareLinksTable;
  root: FilesTable;
}

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export function toLinkEntry(row: FilesTable, rootId: string): LinkEntry {
  const isDir = row.is_dir === 1;
  return {
    id: row.id,
    parentId: row.id === rootId ? null : row.parent_id,
    name: row.name,
    isDir,
    size: isDir ? 0 : Number(row.size),
    kind: fileKindOf(row.name, isDir),
    updatedAt: Number(row.updated_at),
  };
}

export interface LinkVisitServiceDeps {
  links: LinkRepository;
  files: FileRepository;
  grants: ShareGrantRepository;
  archives: ArchiveService;
  downloads: DownloadService;
  copyMove: CopyMoveService;
  secrets: SharingSecrets;
  throttle: LinkThrottle;
  events: ShareEvents;
  watermark: (bytes: Buffer, text: string) => Promise<Buffer | null>;
  /** What the link lets the visitor do with the bytes (common/api/byte-access.ts). */
  gate: ByteGate;
}

/**
 * The visitor's side of share links (sharing.ts): opening with the code (throttled; an unknown token
 * and a wrong code answer alike), the tree below the link's entry and nothing above it, previews,
 * counted downloads through one-time tickets, and saving into 个人文件. Each call records who (the
 * session's account, or an anonymous visitor of the link's tenant) from where.
 */
export class LinkVisitService {
  constructor(private readonly deps: LinkVisitServiceDeps) {}

  /** The visitor as the action log records them in the link's tenant. */
  private actor(visitor: Visitor, tenantId: string): Actor | undefined {
    if (visitor.caller && visitor.caller.tenantId === tenantId) return undefined;
    return { tenantId, id: null, account: '访客', role: '' };
  }

  private codeDigest(link: ShareLinksTable): string {
    return link.code_sealed === null ? '-' : SharingSecrets.hash(this.deps.secrets.open(link.code_sealed)).slice(0, 16);
  }

  /**
   * What the link's page shows before the code (LinkSummary: who shared what, until when; nothing of
   * the contents). Not an access of the link: neither recorded nor counted as a view, like `open`
   * without a code. An unknown token answers as a revoked or expired link does.
   */
  async summary(visitor: Visitor, req: LinkSummaryRequest, now = Date.now()): Promise<LinkSummary> {
    const link = TOKEN_PATTERN.test(req.token) ? await this.deps.links.findByTokenHash(SharingSecrets.hash(req.token)) : undefined;
    if (!link) throw new AppError(ERRORS.LINK_GONE);
    const { root } = await this.live(visitor, link, now);
    const isDir = root.is_dir === 1;
    const owner = (await this.deps.files.nickNames([link.owner_id])).get(link.owner_id) ?? '';
    return {
      needCode: link.code_sealed !== null,
      sharedBy: { nickName: owner },
      name: root.name,
      isDir,
      kind: fileKindOf(root.name, isDir),
      size: isDir ? null : Number(root.size),
      expiresAt: link.expires_at === null ? null : Number(link.expires_at),
      previewOnly: link.preview_only === 1,
    };
  }

  async open(visitor: Visitor, req: LinkOpenRequest, now = Date.now()): Promise<LinkOpenResponse> {
    const token = TOKEN_PATTERN.test(req.token) ? req.token : '';
    const tokenHash = SharingSecrets.hash(token || req.token);
    const link = token ? await this.deps.links.findByTokenHash(tokenHash) : undefined;
    const hasCode = link ? link.code_sealed !== null : true;
    if (req.code === undefined || req.code === '') {
      // No code given: a link with a code and a token nobody issued both ask for it (not an access yet).
      if (!link || hasCode) {
        actionLog.notAnAction();
        return { needCode: true };
      }
      return this.granted(visitor, link, now);
    }
    const tenantId = link?.tenant_id ?? PLATFORM_TENANT;
    const entry = { action: 'link.open' as const, targets: link ? [target('link', link.id, '')] : [], actor: this.actor(visitor, tenantId), detail: {} as Record<string, unknown> };
    actionLog.record(entry);
    const code = req.code;
    // Check, compare and count as one step per token, whichever process each attempt reaches.
    const right = await this.deps.throttle.serialize(tokenHash, async () => {
      await this.deps.throttle.check(tokenHash, visitor.address, now);
      const matches = Boolean(link) && (!hasCode || sameCode(this.deps.secrets.open(link!.code_sealed!), code));
      if (matches) await this.deps.throttle.clear(tokenHash);
      else await this.deps.throttle.recordFailure(tokenHash, visitor.address, now);
      return matches;
    });
    if (!right || !link) {
      entry.detail.tokenKnown = Boolean(link);
      Object.assign(entry, { action: 'link.codeFailed' });
      throw new AppError(ERRORS.LINK_INVALID);
    }
    actionLog.notAnAction();
    return this.granted(visitor, link, now);
  }

  /** The link is the visitor's to use: a visit key, the root, counted as a view and recorded. */
  private async granted(visitor: Visitor, link: ShareLinksTable, now: number): Promise<LinkOpenResponse> {
    const entry = { action: 'link.open' as const, targets: [target('link', link.id, '')], actor: this.actor(visitor, link.tenant_id), detail: {} as Record<string, unknown> };
    actionLog.record(entry);
    const { root } = await this.live(visitor, link, now);
    entry.targets = [target('link', link.id, root.name), fileTarget(root)];
    await this.deps.links.countView(link.id);
    const visit = this.deps.secrets.sign(['v', link.id, String(now + LINK_VISIT_TTL_MS), this.codeDigest(link)]);
    const owner = (await this.deps.files.nickNames([link.owner_id])).get(link.owner_id) ?? '';
    return {
      needCode: false,
      visit,
      root: toLinkEntry(root, root.id),
      sharedBy: { id: link.owner_id, nickName: owner },
      expiresAt: link.expires_at === null ? null : Number(link.expires_at),
      previewOnly: link.preview_only === 1,
      downloadsLeft: link.download_limit === null ? null : Math.max(0, Number(link.download_limit) - Number(link.download_count)),
      signedIn: visitor.caller?.tenantId === link.tenant_id,
      watermark: link.preview_only === 1 ? this.watermarkOf(visitor, now) : null,
    };
  }

  private watermarkOf(visitor: Visitor, now: number): string {
    return watermarkText(visitor.caller ? visitor.caller.username : `guest@${visitor.address}`, now);
  }

  /**
   * The link still gives something (not revoked, not expired, its entry live). Anyone holding the
   * link (and its code) may use it; what they may do with the bytes is ByteGate's decision.
   */
  private async live(visitor: Visitor, link: ShareLinksTable, now: number): Promise<OpenLink> {
    if (link.revoked_at !== null || (link.expires_at !== null && Number(link.expires_at) <= now)) throw new AppError(ERRORS.LINK_GONE);
    const root = await this.deps.files.findInTenant(link.tenant_id, link.file_id);
    if (!root || root.deleted_at != null) throw new AppError(ERRORS.LINK_GONE);
    return { link, root };
  }

  /** The link a visit key opened, checked again now; a forged, old or superseded key answers LINK_VISIT_EXPIRED. */
  private async visit(visitor: Visitor, visit: string, now: number): Promise<OpenLink> {
    const parts = this.deps.secrets.verify(visit, 4);
    if (!parts || parts[0] !== 'v' || Number(parts[2]) < now) throw new AppError(ERRORS.LINK_VISIT_EXPIRED);
    const link = await this.deps.links.findById(parts[1]!);
    if (!link) throw new AppError(ERRORS.LINK_VISIT_EXPIRED);
    const open = await this.live(visitor, link, now);
    // A new code ends the visits opened with the old one.
    if (this.codeDigest(link) !== parts[3]) throw new AppError(ERRORS.LINK_VISIT_EXPIRED);
    return open;
  }

  /** Entries of the link's tree (the root or below it); anything else looks unknown. */
  private async within(open: OpenLink, ids: readonly string[]): Promise<FilesTable[]> {
    const unique = [...new Set(ids)];
    const rows = await this.deps.files.findManyInTenant(open.link.tenant_id, unique);
    if (rows.length !== unique.length || rows.some((r) => r.deleted_at != null)) throw new AppError(ERRORS.NOT_FOUND);
    const outside = rows.filter((r) => r.id !== open.root.id);
    if (outside.length > 0) {
      const chains = await this.deps.grants.ancestors(open.link.tenant_id, outside.map((r) => r.id));
      if (outside.some((r) => !(chains.get(r.id) ?? []).includes(open.root.id))) throw new AppError(ERRORS.NOT_FOUND);
    }
    const order = new Map(unique.map((id, i) => [id, i]));
    return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  async list(visitor: Visitor, req: LinkListRequest, now = Date.now()): Promise<LinkListResponse> {
    const open = await this.visit(visitor, req.visit, now);
    const rootId = open.root.id;
    if (open.root.is_dir === 0) return { items: req.cursor ? [] : [toLinkEntry(open.root, rootId)], nextCursor: null, path: [] };
    const [folder] = await this.within(open, [req.parentId ?? rootId]);
    if (folder!.is_dir !== 1) throw new AppError(ERRORS.NOT_FOUND);
    const pageSize = pageSizeOf(req.pageSize);
    const after = decodeListCursor(req.cursor);
    const rows = await this.deps.files.list({ parent: { kind: 'folder', parentId: folder!.id }, column: 'sort_key', descending: false, after, limit: pageSize + 1 });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const chain = await this.deps.files.pathTo(open.link.tenant_id, folder!.id);
    const from = chain.findIndex((c) => c.id === rootId);
    return {
      items: page.map((r) => toLinkEntry(r, rootId)),
      nextCursor: rows.length > pageSize && last ? Buffer.from(JSON.stringify({ isDir: last.is_dir, value: last.sort_key, id: last.id })).toString('base64url') : null,
      path: chain.slice(Math.max(0, from)).map((c) => ({ id: c.id, name: c.name })),
    };
  }

  /** Counts a download (DEP10213 past the limit) and answers the one-time address of its bytes. */
  async download(visitor: Visitor, req: LinkDownloadRequest, now = Date.now()): Promise<LinkDownloadResponse> {
    const open = await this.visit(visitor, req.visit, now);
    const entry = { action: 'link.download' as const, targets: [target('link', open.link.id, open.root.name)], actor: this.actor(visitor, open.link.tenant_id), detail: {} as Record<string, unknown> };
    actionLog.record(entry);
    const rows = await this.within(open, req.ids);
    entry.targets.push(...rows.map(fileTarget));
    this.deps.gate.linkUse(open.link, 'download');
    await this.deps.gate.assertPublicSpace(open.link.tenant_id, [open.root], 'download');
    if (rows.length === 1 && rows[0]!.is_dir === 0 && !rows[0]!.blob_id) throw new AppError(ERRORS.NOT_FOUND);
    // The ZIP's caps are checked before the download is counted.
    if (rows.length > 1 || rows[0]!.is_dir === 1) await this.deps.archives.planRows(open.link.tenant_id, rows);
    const count = await this.claim(visitor, open, now);
    entry.detail.downloadNo = count;
    const ticket = randomBytes(24).toString('base64url');
    await this.deps.links.insertTicket({
      id_hash: SharingSecrets.hash(ticket),
      link_id: open.link.id,
      tenant_id: open.link.tenant_id,
      file_ids: JSON.stringify(rows.map((r) => r.id)),
      created_at: now,
      expires_at: now + LINK_TICKET_TTL_MS,
      used_at: null,
      served: 0,
      credited: 0,
      cut_start: null,
      cut_end: null,
    });
    this.deps.events.linkDownloaded({ tenantId: open.link.tenant_id, linkId: open.link.id, ownerId: open.link.owner_id, fileIds: rows.map((r) => r.id), visitorId: visitor.caller?.userId ?? null });
    const limit = open.link.download_limit;
    return { url: `${API.linkFilePrefix}${ticket}`, downloadsLeft: limit === null ? null : Math.max(0, Number(limit) - count) };
  }

  /** Takes one of the link's downloads (DEP10213 past the limit); answers its number. */
  private async claim(visitor: Visitor, open: OpenLink, now: number): Promise<number> {
    const count = await this.deps.links.claimDownload(open.link.id, now);
    if (count !== null) return count;
    // Revoked or expired in between answer as such; otherwise the limit was reached (spec §8).
    const fresh = await this.deps.links.findById(open.link.id);
    if (fresh) await this.live(visitor, fresh, now);
    throw new AppError(ERRORS.DOWNLOAD_EXCEEDED);
  }

  /**
   * What a ticket names, checked again now (the link in force, its entries live and inside it): one
   * file or a ZIP, with the ticket's key for the meter (ticket-meter.ts), which decides how many of
   * its bytes a request gets (one copy in all, sharing.ts). Not an action of its own (the download was
   * recorded when counted).
   */
  async ticketContent(visitor: Visitor, ticket: string, now = Date.now()): Promise<{ hash: string } & ({ file: Downloadable } | { zip: ZipPlan })> {
    actionLog.notAnAction();
    const hash = SharingSecrets.hash(ticket);
    const row = await this.deps.links.findTicket(hash);
    if (!row || Number(row.expires_at) < now) throw new AppError(ERRORS.LINK_TICKET_INVALID);
    const link = await this.deps.links.findById(row.link_id);
    if (!link || link.revoked_at !== null) throw new AppError(ERRORS.LINK_GONE);
    const open = await this.live(visitor, link, now);
    this.deps.gate.assertTicket(link);
    // Switched off after the ticket was issued: refused from the next request on.
    await this.deps.gate.assertPublicSpace(link.tenant_id, [open.root], 'download');
    const ids = JSON.parse(row.file_ids) as string[];
    const rows = await this.within(open, ids);
    if (rows.length === 1 && rows[0]!.is_dir === 0) return { hash, file: await this.deps.downloads.ofBlob(link.tenant_id, rows[0]!.name, rows[0]!.blob_id!) };
    return { hash, zip: (await this.deps.archives.planRows(link.tenant_id, rows, rows.length === 1 ? rows[0]!.name : open.root.name)).plan };
  }

  /**
   * What a preview of a file of the link shows (ByteGate.view: a rendition, never the original as an
   * attachment, whatever is left of the link's downloads); through a preview-only link a picture
   * carries the watermark.
   */
  async preview(visitor: Visitor, visit: string, id: string, now = Date.now()): Promise<Preview> {
    const open = await this.visit(visitor, visit, now);
    const entry = { action: 'link.preview' as const, targets: [target('link', open.link.id, open.root.name)], actor: this.actor(visitor, open.link.tenant_id) };
    actionLog.record(entry);
    const [row] = await this.within(open, [id]);
    entry.targets.push(fileTarget(row!));
    if (row!.is_dir === 1) throw new AppError(ERRORS.IS_FOLDER);
    if (!row!.blob_id) throw new AppError(ERRORS.NOT_FOUND);
    const plan = this.deps.gate.view(row!.name, linkGrant(open.link));
    const file = await this.deps.downloads.shown(open.link.tenant_id, row!.name, row!.blob_id, plan);
    const watermark = plan.rendition.as === 'watermarked-picture' ? this.watermarkOf(visitor, now) : null;
    return { file, plan, watermark };
  }

  async thumbnail(visitor: Visitor, visit: string, id: string, now = Date.now()): Promise<{ data: Buffer; etag: string }> {
    actionLog.notAnAction();
    const open = await this.visit(visitor, visit, now);
    const [row] = await this.within(open, [id]);
    if (row!.is_dir === 1 || !hasThumbnail(row!.name) || !row!.blob_id) throw new AppError(ERRORS.NO_THUMBNAIL);
    this.deps.gate.assertView(linkGrant(open.link));
    const plain = await this.deps.archives.plainThumbnail(open.link.tenant_id, row!.blob_id, row!.name);
    if (!viewsOnly(linkGrant(open.link))) return plain;
    const text = this.watermarkOf(visitor, now);
    const marked = await this.deps.watermark(plain.data, text);
    if (!marked) throw new AppError(ERRORS.NO_THUMBNAIL);
    return { data: marked, etag: `"thumb-wm-${SharingSecrets.hash(text + plain.etag).slice(0, 24)}"` };
  }

  /** A signed-in visitor of the link's tenant copies entries into 个人文件 (taken names get ' (n)'). */
  async save(visitor: Visitor, req: LinkSaveRequest, now = Date.now()): Promise<LinkSaveResponse> {
    const caller = visitor.caller;
    if (!caller) throw new AppError(ERRORS.UNAUTHORIZED);
    const open = await this.visit(visitor, req.visit, now);
    const entry = { action: 'link.save' as const, targets: [target('link', open.link.id, open.root.name)] as ReturnType<typeof target>[], detail: { targetParentId: req.targetParentId } as Record<string, unknown> };
    actionLog.record(entry);
    // Another tenant's user cannot hold this tenant's files.
    if (caller.tenantId !== open.link.tenant_id) throw new AppError(ERRORS.FORBIDDEN);
    const rows = await this.within(open, req.ids);
    entry.targets.push(...rows.map(fileTarget));
    // The saved copy is the original: one of the link's downloads, like a download (byte-access.ts).
    const counted = this.deps.gate.linkUse(open.link, 'read') === 'counted';
    await this.deps.gate.assertPublicSpace(open.link.tenant_id, [open.root], 'read');
    if (counted) entry.detail.downloadNo = await this.claim(visitor, open, now);
    try {
      const saved = await this.deps.copyMove.copyRows(caller, rows, req.targetParentId, now);
      // The sharer hears of it as of a download: it took one.
      if (counted) this.deps.events.linkDownloaded({ tenantId: open.link.tenant_id, linkId: open.link.id, ownerId: open.link.owner_id, fileIds: rows.map((r) => r.id), visitorId: caller.userId });
      return { saved };
    } catch (err) {
      // A refused save (a full quota, a target folder gone) gives the download back.
      if (counted) await this.deps.links.releaseDownload(open.link.id);
      throw err;
    }
  }
}

function decodeListCursor(cursor: string | null | undefined): { isDir: number; value: string; id: string } | null {
  if (!cursor) return null;
  try {
    const d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { isDir: unknown; value: unknown; id: unknown };
    if ((d.isDir === 0 || d.isDir === 1) && typeof d.value === 'string' && typeof d.id === 'string') return { isDir: d.isDir, value: d.value, id: d.id };
  } catch {
    // fall through
  }
  throw new AppError(ERRORS.VALIDATION, '分页游标无效');
}
