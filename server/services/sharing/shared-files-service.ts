import { ERRORS } from '../../../common/api/errors';
import { strongerPermission, type ShareGrantInfo, type SharedListResponse } from '../../../common/api/sharing';
import type { SharedListRequest } from '../../../common/api/endpoints/shares';
import type { FileEntry } from '../../../common/api/types';
import type { FilesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { FileRepository } from '../../repositories/file-repository';
import type { Audience, Grant, ShareGrantRepository } from '../../repositories/share-grants';
import { recipientKeysOf, type InboxPosition, type InboxRow, type RecipientKey, type ShareRepository } from '../../repositories/share-repository';
import type { Caller } from '../caller';
import type { EntryDecorator } from '../entry-decorator';
import type { FileService } from '../file-service';
import type { AccessService } from '../space-access';
import { decodePosition, encodePosition, pageSizeOf } from './share-service';

const after = (a: InboxPosition, b: InboxPosition): boolean => a.at < b.at || (a.at === b.at && a.id < b.id);

/** Rounds of walks one inbox page may take (each reads every recipient key once). */
const MAX_ROUNDS = 20;

export interface SharedFilesServiceDeps {
  shares: ShareRepository;
  grants: ShareGrantRepository;
  files: FileRepository;
  fileService: FileService;
  access: AccessService;
  decorator: EntryDecorator;
}

/**
 * 共享文件 (`POST /api/shareFile/list`): what others share with the caller. The root is a keyset
 * k-way merge: one walk of shares_inbox per recipient key of the caller (themself, each department
 * above them, each group), each in index order (newest share first), merged in memory — no query
 * sorts. An entry shared with the caller several ways appears once, at its newest share, with the
 * strongest permission in force. Inside a shared folder it is a folder listing checked through the
 * share.
 */
export class SharedFilesService {
  constructor(private readonly deps: SharedFilesServiceDeps) {}

  async list(caller: Caller, req: SharedListRequest, now = Date.now()): Promise<SharedListResponse> {
    return req.parentId ? this.folder(caller, req, req.parentId, now) : this.root(caller, req, now);
  }

  private async root(caller: Caller, req: SharedListRequest, now: number): Promise<SharedListResponse> {
    const pageSize = pageSizeOf(req.pageSize);
    const audience = await this.deps.grants.audience(caller.tenantId, caller.userId);
    const keys = recipientKeysOf(audience);
    const sharerId = req.sharerId ?? null;
    const start = decodePosition(req.cursor);
    const page = await this.mergePage(caller, audience, keys, sharerId, start, pageSize, now);
    const rows = page.rows.map((r) => r.file);
    const grants = await this.deps.grants.grants(caller.tenantId, caller.userId, rows.map((r) => r.id), now);
    const names = await this.deps.files.nickNames([...new Set(page.rows.map((r) => r.owner_id))]);
    const items = await this.deps.decorator.decorate(caller, rows, { now });
    page.rows.forEach((r, i) => {
      const g = grants.get(r.file_id);
      items[i]!.share = {
        permission: g?.permission ?? r.permission,
        sharedBy: { id: r.owner_id, nickName: names.get(r.owner_id) ?? '' },
        sharedAt: Number(r.created_at),
        expiresAt: g ? g.expiresAt : r.expires_at === null ? null : Number(r.expires_at),
        rootId: r.file_id,
      };
    });
    const out: SharedListResponse = { items, nextCursor: page.next ? encodePosition(page.next.at, page.next.id) : null };
    if (!req.cursor) {
      const counts = await this.deps.shares.sharers(caller.tenantId, keys, caller.userId, now);
      const who = await this.deps.files.nickNames(counts.map((c) => c.owner_id));
      out.sharers = counts
        .map((c) => ({ user: { id: c.owner_id, nickName: who.get(c.owner_id) ?? '' }, count: c.n }))
        .sort((a, b) => b.count - a.count || a.user.nickName.localeCompare(b.user.nickName, 'zh-CN'));
    }
    return out;
  }

  /**
   * Merges the walks: a row is taken only when no key still to be read could hold a newer one; an
   * entry whose newest share reaching the caller is another row is skipped (it shows there).
   */
  private async mergePage(
    caller: Caller,
    audience: Audience,
    keys: readonly RecipientKey[],
    sharerId: string | null,
    start: InboxPosition | null,
    pageSize: number,
    now: number,
  ): Promise<{ rows: InboxRow[]; next: InboxPosition | null }> {
    const taken: InboxRow[] = [];
    const seenFiles = new Set<string>();
    let position = start;
    const batch = pageSize + 1;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const walks = await Promise.all(
        keys.map((key) => this.deps.shares.inboxWalk(caller.tenantId, key, { excludeOwner: caller.userId, sharerId, after: position, limit: batch, now })),
      );
      // The oldest row each unfinished walk reached: rows older than the newest of those may have
      // unread newer rows before them in another walk.
      let horizon: InboxPosition | null = null;
      for (const w of walks) {
        if (w.length < batch) continue;
        const last = w[w.length - 1]!;
        const pos = { at: Number(last.created_at), id: last.id };
        if (!horizon || after(horizon, pos)) horizon = pos;
      }
      const merged = walks.flat().sort((a, b) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
      const unique = merged.filter((r, i) => i === 0 || merged[i - 1]!.id !== r.id);
      // Rows past the horizon are read again next round: their entries need no look-up now.
      const usable = horizon ? unique.filter((r) => !after({ at: Number(r.created_at), id: r.id }, horizon)) : unique;
      const primary = await this.newestShares(audience, usable.map((r) => r.file_id), sharerId, now);
      for (const row of usable) {
        const pos = { at: Number(row.created_at), id: row.id };
        position = pos;
        if (primary.get(row.file_id) !== row.id || seenFiles.has(row.file_id)) continue;
        seenFiles.add(row.file_id);
        taken.push(row);
        if (taken.length === pageSize + 1) return { rows: taken.slice(0, pageSize), next: { at: Number(taken[pageSize - 1]!.created_at), id: taken[pageSize - 1]!.id } };
      }
      if (!horizon) return { rows: taken, next: null };
    }
    // A pathological inbox (thousands of duplicates in a row): answer what was found and go on later.
    return { rows: taken, next: position };
  }

  /** For each entry, the id of the newest share in force reaching the audience (of one sharer when filtered). */
  private async newestShares(audience: Audience, fileIds: readonly string[], sharerId: string | null, now: number): Promise<Map<string, string>> {
    const out = new Map<string, { at: number; id: string }>();
    for (const s of await this.deps.grants.direct(audience, fileIds, now)) {
      if (sharerId && s.owner_id !== sharerId) continue;
      const pos = { at: Number(s.created_at), id: s.id };
      const cur = out.get(s.file_id);
      if (!cur || after(cur, pos)) out.set(s.file_id, pos);
    }
    return new Map([...out].map(([k, v]) => [k, v.id]));
  }

  /** A folder inside a share: its listing, each child with the strongest grant reaching it. */
  private async folder(caller: Caller, req: SharedListRequest, parentId: string, now: number): Promise<SharedListResponse> {
    const grant = await this.grantOn(caller, parentId, now);
    const { row } = await this.deps.access.entry(caller, parentId);
    if (row.is_dir !== 1) throw new AppError(ERRORS.NOT_FOUND);
    const listing = await this.deps.fileService.list(caller, {
      parentId,
      category: row.category,
      spaceId: row.space_id ? row.space_id : undefined,
      sortField: req.sortField,
      sortOrder: req.sortOrder,
      cursor: req.cursor,
      pageSize: req.pageSize,
    });
    const names = await this.deps.files.nickNames([grant.sharedBy]);
    const info = grantInfo(grant, names.get(grant.sharedBy) ?? '');
    const audience = await this.deps.grants.audience(caller.tenantId, caller.userId);
    const direct = await this.deps.grants.direct(audience, listing.items.map((i) => i.id), now);
    return { items: listing.items.map((item) => withChildGrant(item, info, direct.filter((s) => s.file_id === item.id))), nextCursor: listing.nextCursor, grant: info };
  }

  /** The grant shares give the caller on an entry; 404 when none (their own folders are not 共享文件). */
  private async grantOn(caller: Caller, id: string, now: number): Promise<Grant> {
    const grant = (await this.deps.grants.grants(caller.tenantId, caller.userId, [id], now)).get(id);
    if (!grant) throw new AppError(ERRORS.NOT_FOUND);
    return grant;
  }
}

export function grantInfo(grant: Grant, sharerName: string): ShareGrantInfo {
  return { permission: grant.permission, sharedBy: { id: grant.sharedBy, nickName: sharerName }, sharedAt: grant.sharedAt, expiresAt: grant.expiresAt, rootId: grant.rootId };
}

function withChildGrant(item: FileEntry, folder: ShareGrantInfo, direct: ReadonlyArray<{ permission: ShareGrantInfo['permission'] }>): FileEntry {
  const permission = direct.reduce((p, s) => strongerPermission(p, s.permission), folder.permission);
  return { ...item, share: { ...folder, permission } };
}

export type { FilesTable };
