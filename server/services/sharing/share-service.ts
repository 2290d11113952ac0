import { ERRORS } from '../../../common/api/errors';
import { SHARE_MAX_VALIDITY_DAYS, type MySharesResponse, type ShareCreateResponse, type ShareInfo, type ShareRecipient, type ShareRecipientInfo, type ShareState, type SharedEntryRef } from '../../../common/api/sharing';
import type { MySharesRequest, ShareCreateRequest, ShareUpdateRequest } from '../../../common/api/endpoints/shares';
import { beyondShareCeiling, widerShareTerms, type ApprovedShareTerms, type ShareTerms } from '../../../common/api/share-terms';
import type { UserRef } from '../../../common/api/types';
import { FILE_CATEGORY, FILE_LIST_DEFAULT_PAGE_SIZE, FILE_LIST_MAX_PAGE_SIZE } from '../../../common/api/types';
import { fileKindOf } from '../../../common/files/kind';
import { spaceMayModify } from '../../../common/files/space-roles';
import type { FilesTable, SharesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { newId } from '../../ids';
import type { FileRepository } from '../../repositories/file-repository';
import type { ShareRepository } from '../../repositories/share-repository';
import type { PersonRef, SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import { actionLog, fileTarget, target, type Actor } from '../action-log/recorder';
import type { Caller } from '../caller';
import type { AccessService, EntryAccess } from '../space-access';
import type { ShareEvents } from './share-events';
import type { SharePolicyEvaluator } from './share-policy';
import { approvedTermsOf, assertWithinCeiling } from './update-ceiling';

const DAY_MS = 24 * 3600 * 1000;

export function checkedValidity(days: number): number {
  if (!Number.isInteger(days) || days < 0 || days > SHARE_MAX_VALIDITY_DAYS) throw new AppError(ERRORS.SHARE_VALIDITY_INVALID);
  return days;
}

export const expiryOf = (days: number, now: number): number | null => (days === 0 ? null : now + days * DAY_MS);

export function stateOf(row: { revoked_at: number | null; expires_at: number | null }, now: number): ShareState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && Number(row.expires_at) <= now) return 'expired';
  return 'active';
}

export function entryRef(row: FilesTable | undefined, id: string): SharedEntryRef {
  if (!row) return { id, name: '', isDir: false, kind: 'unknown', deleted: true };
  const isDir = row.is_dir === 1;
  return { id: row.id, name: row.name, isDir, kind: fileKindOf(row.name, isDir), deleted: row.deleted_at != null };
}

export const personName = (p: Pick<PersonRef, 'username' | 'nick_name'>): string => (p.nick_name ? `${p.nick_name}（${p.username}）` : p.username);
export const userRefOf = (p: Pick<PersonRef, 'id' | 'nick_name' | 'username'> | undefined, id: string): UserRef => ({ id, nickName: p ? p.nick_name || p.username : '' });

/** Cursor of newest-first lists: [created_at, id] as base64url JSON. */
export function encodePosition(at: number, id: string): string {
  return Buffer.from(JSON.stringify([at, id])).toString('base64url');
}
export function decodePosition(cursor: string | null | undefined): { at: number; id: string } | null {
  if (!cursor) return null;
  try {
    const d = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (typeof d[0] === 'number' && typeof d[1] === 'string') return { at: d[0], id: d[1] };
  } catch {
    // fall through
  }
  throw new AppError(ERRORS.VALIDATION, '分页游标无效');
}

export const pageSizeOf = (n: number | undefined): number => Math.min(Math.max(n ?? FILE_LIST_DEFAULT_PAGE_SIZE, 1), FILE_LIST_MAX_PAGE_SIZE);

/** A share or link made by an approved application: recorded as the applicant's (the approver's request makes it). */
export interface Approved {
  applicationId: string;
  /** Levels the application went through (recorded with the approved terms). */
  levels: number;
  actor?: Actor;
}

/** Rows scanned at most by one call of a filtered list before it answers a partial page. */
const FILTER_SCAN_LIMIT = 5000;

export interface Position {
  at: number;
  id: string;
}

/**
 * One page of a newest-first keyset list with a filter the index cannot apply: batches are read
 * after `after` until the page is full, the list ends, or FILTER_SCAN_LIMIT rows were looked at (then
 * a short page answers with a cursor to go on from).
 */
export async function filteredPage<T>(
  fetch: (after: Position | null, limit: number) => Promise<T[]>,
  positionOf: (row: T) => Position,
  keep: (rows: T[]) => Promise<boolean[]>,
  pageSize: number,
  after: Position | null,
): Promise<{ items: T[]; next: Position | null }> {
  const items: T[] = [];
  let scanned = 0;
  for (;;) {
    const batch = await fetch(after, pageSize);
    const flags = await keep(batch);
    for (let i = 0; i < batch.length; i++) {
      after = positionOf(batch[i]!);
      if (flags[i]) items.push(batch[i]!);
      if (items.length === pageSize) return { items, next: i < batch.length - 1 || batch.length === pageSize ? after : null };
    }
    scanned += batch.length;
    if (batch.length < pageSize) return { items, next: null };
    if (scanned >= FILTER_SCAN_LIMIT) return { items, next: after };
  }
}

export interface ShareServiceDeps {
  shares: ShareRepository;
  files: FileRepository;
  lookup: SharingLookupRepository;
  access: AccessService;
  policy: SharePolicyEvaluator;
  events: ShareEvents;
}

/**
 * Internal shares (sharing.ts): create, change, revoke, 我的分享. What others share with the caller
 * (共享文件) is SharedFilesService; access through shares is AccessService's.
 */
export class ShareService {
  constructor(private readonly deps: ShareServiceDeps) {}

  /** The caller as the policy sees them. */
  async person(caller: Caller): Promise<PersonRef> {
    const [me] = await this.deps.lookup.people(caller.tenantId, [caller.userId]);
    if (!me) throw new AppError(ERRORS.UNAUTHORIZED);
    return me;
  }

  /**
   * Entries the caller may share: their own personal entries, entries of a space they may modify
   * (never a space's root). Entries reached through a share are not theirs to pass on.
   */
  async shareable(caller: Caller, ids: readonly string[]): Promise<EntryAccess[]> {
    const entries = await this.deps.access.entries(caller, ids);
    for (const e of entries) {
      if (e.share) throw new AppError(ERRORS.SHARE_NOT_ALLOWED);
      // The exchange area is a transit zone between the network builds, not a place to share from.
      if (!e.access && e.row.category === FILE_CATEGORY.exchange) throw new AppError(ERRORS.SHARE_NOT_ALLOWED, '交换区中的文件不能分享');
      if (e.access && (e.row.id === e.access.space.root_id || !spaceMayModify(e.access.role, caller.userId, e.row.owner_id, caller.role === 'admin'))) {
        throw new AppError(ERRORS.SHARE_NOT_ALLOWED);
      }
    }
    return entries;
  }

  /** Recipients of the caller's tenant with their names; any unknown one answers 404 like an unknown id. */
  async recipients(caller: Caller, list: readonly ShareRecipient[]): Promise<ShareRecipientInfo[]> {
    const unique = [...new Map(list.map((r) => [`${r.type}:${r.id}`, r])).values()];
    if (unique.some((r) => r.type === 'user' && r.id === caller.userId)) throw new AppError(ERRORS.SHARE_TO_SELF);
    const names = await this.recipientNames(caller.tenantId, unique);
    for (const r of unique) {
      if (names.has(`${r.type}:${r.id}`)) continue;
      throw new AppError(r.type === 'user' ? ERRORS.USER_NOT_FOUND : r.type === 'dept' ? ERRORS.DEPT_NOT_FOUND : ERRORS.NOT_FOUND);
    }
    return unique.map((r) => ({ ...r, name: names.get(`${r.type}:${r.id}`)! }));
  }

  /** `type:id` → name of the recipients that exist in the tenant (live people, departments, groups). */
  async recipientNames(tenantId: string, list: readonly ShareRecipient[], anyPeople = false): Promise<Map<string, string>> {
    const ids = (type: string) => list.filter((r) => r.type === type).map((r) => r.id);
    const out = new Map<string, string>();
    const people = anyPeople ? await this.deps.lookup.anyPeople(tenantId, ids('user')) : await this.deps.lookup.people(tenantId, ids('user'));
    for (const p of people) out.set(`user:${p.id}`, personName(p));
    for (const d of await this.deps.lookup.departments(tenantId, ids('dept'))) out.set(`dept:${d.id}`, d.name);
    for (const g of await this.deps.lookup.groups(tenantId, ids('group'))) out.set(`group:${g.id}`, g.name);
    return out;
  }

  /**
   * Shares entries with recipients (one share per entry and recipient; an existing one in force is
   * updated). Refused with SHARE_APPROVAL_REQUIRED when the policy wants an application, unless the
   * call comes from an approved application.
   */
  async create(caller: Caller, req: ShareCreateRequest, approved: Approved | null = null, now = Date.now()): Promise<ShareCreateResponse> {
    const detail: Record<string, unknown> = { permission: req.permission, validityDays: req.validityDays, applicationId: approved?.applicationId ?? null };
    const entry = { action: 'share.create' as const, targets: [] as ReturnType<typeof target>[], detail, actor: approved?.actor };
    actionLog.record(entry);
    const days = checkedValidity(req.validityDays);
    const entries = await this.shareable(caller, req.fileIds);
    entry.targets = entries.map((e) => fileTarget(e.row));
    const recipients = await this.recipients(caller, req.recipients);
    entry.targets.push(...recipients.map((r) => target(r.type === 'dept' ? 'department' : r.type, r.id, r.name)));
    const verdict = await this.deps.policy.evaluate(caller.tenantId, await this.person(caller), 'share', entries.map((e) => e.row), recipients);
    if (!approved && verdict.required) throw new AppError(ERRORS.SHARE_APPROVAL_REQUIRED, undefined, {}, { reasons: verdict.reasons });
    const expiresAt = expiryOf(days, now);
    // What the approval granted, and what it answered: the share's ceiling (share-terms.ts).
    const approvedTerms: ApprovedShareTerms | null = approved ? { permission: req.permission, expiresAt, reasons: verdict.reasons, levels: approved.levels } : null;
    const rows: SharesTable[] = entries.flatMap((e) =>
      recipients.map((r) => ({
        id: newId(),
        tenant_id: caller.tenantId,
        file_id: e.row.id,
        owner_id: caller.userId,
        recipient_type: r.type,
        recipient_id: r.id,
        permission: req.permission,
        expires_at: expiresAt,
        created_at: now,
        updated_at: now,
        revoked_at: null,
        application_id: approved?.applicationId ?? null,
        approved_terms: approvedTerms ? JSON.stringify(approvedTerms) : null,
      })),
    );
    const saved = await this.deps.shares.upsert(rows);
    this.deps.events.shared({ tenantId: caller.tenantId, sharerId: caller.userId, fileIds: entries.map((e) => e.row.id), recipients, permission: req.permission });
    return { shares: await this.describe(caller.tenantId, saved, now) };
  }

  /**
   * One of the caller's shares in force: a new permission and/or validity (counted from now), never
   * wider than its ceiling (common/api/share-terms.ts).
   */
  async update(caller: Caller, req: ShareUpdateRequest, now = Date.now()): Promise<ShareInfo> {
    const detail: Record<string, unknown> = { permission: req.permission ?? null, validityDays: req.validityDays ?? null };
    const entry = { action: 'share.update' as const, targets: [target('share', req.id, '')], detail };
    actionLog.record(entry);
    const share = await this.ownShare(caller, req.id);
    if (stateOf(share, now) === 'revoked') throw new AppError(ERRORS.SHARE_NOT_FOUND);
    const [file] = await this.deps.files.findManyInTenant(caller.tenantId, [share.file_id]);
    entry.targets = [target('share', share.id, file?.name ?? ''), ...(file ? [fileTarget(file)] : [])];
    const next: Partial<ShareTerms> = {};
    if (req.permission) next.permission = req.permission;
    if (req.validityDays !== undefined) next.expiresAt = expiryOf(checkedValidity(req.validityDays), now);
    // Widening what a share gives is sharing again: the sharer must still be allowed to share it.
    const [entryAccess] = await this.shareable(caller, [share.file_id]);
    const approved = approvedTermsOf<ApprovedShareTerms>(share);
    await assertWithinCeiling({
      widened: widerShareTerms(next, { permission: share.permission, expiresAt: share.expires_at === null ? null : Number(share.expires_at) }),
      beyond: approved ? widerShareTerms(next, approved).map((t) => beyondShareCeiling(t, approved)) : [],
      approval: approved,
      policy: async () => this.deps.policy.evaluate(caller.tenantId, await this.person(caller), 'share', [entryAccess!.row], [{ type: share.recipient_type, id: share.recipient_id }]),
      detail,
    });
    const patch: Partial<SharesTable> = { updated_at: now };
    if (next.permission) patch.permission = next.permission;
    if (next.expiresAt !== undefined) patch.expires_at = next.expiresAt;
    await this.deps.shares.update(caller.tenantId, share.id, patch);
    const updated = { ...share, ...patch };
    this.deps.events.shareChanged({
      tenantId: caller.tenantId,
      sharerId: caller.userId,
      shareId: share.id,
      fileId: share.file_id,
      recipient: { type: share.recipient_type, id: share.recipient_id },
      permission: updated.permission,
      expiresAt: updated.expires_at,
    });
    return (await this.describe(caller.tenantId, [updated], now))[0]!;
  }

  async revoke(caller: Caller, ids: readonly string[], now = Date.now()): Promise<{ revoked: number }> {
    const entry = { action: 'share.revoke' as const, targets: ids.map((id) => target('share', id, '')) };
    actionLog.record(entry);
    const rows = await this.deps.shares.findMany(caller.tenantId, ids);
    // Another user's share (or another tenant's) is unknown to the caller.
    if (rows.length !== new Set(ids).size || rows.some((r) => r.owner_id !== caller.userId)) throw new AppError(ERRORS.SHARE_NOT_FOUND);
    const files = new Map((await this.deps.files.findManyInTenant(caller.tenantId, rows.map((r) => r.file_id))).map((f) => [f.id, f]));
    entry.targets = rows.map((r) => target('share', r.id, files.get(r.file_id)?.name ?? ''));
    const revoked = await this.deps.shares.revoke(caller.tenantId, caller.userId, ids, now);
    if (revoked.length > 0) this.deps.events.sharesRevoked({ tenantId: caller.tenantId, sharerId: caller.userId, shareIds: revoked });
    return { revoked: revoked.length };
  }

  /** Takes back shares an approval had just made when the approval itself lost a race (no action of its own). */
  async revokeQuietly(caller: Caller, ids: readonly string[], now: number): Promise<void> {
    await this.deps.shares.revoke(caller.tenantId, caller.userId, ids, now);
  }

  private async ownShare(caller: Caller, id: string): Promise<SharesTable> {
    const share = await this.deps.shares.find(caller.tenantId, id);
    if (!share || share.owner_id !== caller.userId) throw new AppError(ERRORS.SHARE_NOT_FOUND);
    return share;
  }

  /** 我的分享 (internal shares): newest first, filtered by state and entry name. */
  async mine(caller: Caller, req: MySharesRequest, now = Date.now()): Promise<MySharesResponse> {
    const states = req.states?.length ? new Set(req.states) : null;
    const keyword = req.keyword?.trim().toLowerCase() ?? '';
    const files = new Map<string, FilesTable>();
    const page = await filteredPage(
      (after, limit) => this.deps.shares.mine(caller.tenantId, caller.userId, after, limit),
      (r) => ({ at: Number(r.created_at), id: r.id }),
      async (rows) => {
        for (const f of await this.deps.files.findManyInTenant(caller.tenantId, rows.map((r) => r.file_id))) files.set(f.id, f);
        return rows.map((r) => (!states || states.has(stateOf(r, now))) && (!keyword || (files.get(r.file_id)?.name.toLowerCase().includes(keyword) ?? false)));
      },
      pageSizeOf(req.pageSize),
      decodePosition(req.cursor),
    );
    return { items: await this.describe(caller.tenantId, page.items, now, files), nextCursor: page.next ? encodePosition(page.next.at, page.next.id) : null };
  }

  /** ShareInfo of rows (one query for entries, one per recipient type for names). */
  async describe(tenantId: string, rows: readonly SharesTable[], now: number, known = new Map<string, FilesTable>()): Promise<ShareInfo[]> {
    const missing = rows.map((r) => r.file_id).filter((id) => !known.has(id));
    for (const f of await this.deps.files.findManyInTenant(tenantId, missing)) known.set(f.id, f);
    const names = await this.recipientNames(
      tenantId,
      rows.map((r) => ({ type: r.recipient_type, id: r.recipient_id })),
      true,
    );
    return rows.map((r) => ({
      id: r.id,
      file: entryRef(known.get(r.file_id), r.file_id),
      recipient: { type: r.recipient_type, id: r.recipient_id, name: names.get(`${r.recipient_type}:${r.recipient_id}`) ?? '（已删除）' },
      permission: r.permission,
      expiresAt: r.expires_at === null ? null : Number(r.expires_at),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
      state: stateOf(r, now),
      applicationId: r.application_id,
      approvedTerms: approvedTermsOf<ApprovedShareTerms>(r),
    }));
  }
}
