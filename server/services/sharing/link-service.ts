import { randomInt } from 'node:crypto';
import { ERRORS } from '../../../common/api/errors';
import { LINK_CODE_ALPHABET, LINK_CODE_LENGTH, LINK_CODE_PATTERN, LINK_MAX_DOWNLOAD_LIMIT, type LinkInfo, type MyLinksResponse } from '../../../common/api/sharing';
import type { LinkCreateRequest, LinkSettings, LinkUpdateRequest, MyLinksRequest } from '../../../common/api/endpoints/links';
import { beyondLinkCeiling, widerLinkTerms, type ApprovedLinkTerms, type LinkTerms } from '../../../common/api/share-terms';
import type { FilesTable, ShareLinksTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { newId } from '../../ids';
import type { FileRepository } from '../../repositories/file-repository';
import type { LinkRepository } from '../../repositories/link-repository';
import { actionLog, fileTarget, target } from '../action-log/recorder';
import type { Caller } from '../caller';
import type { SharePolicyEvaluator } from './share-policy';
import { checkedValidity, decodePosition, encodePosition, entryRef, expiryOf, filteredPage, pageSizeOf, stateOf, type Approved, type ShareService } from './share-service';
import { SharingSecrets } from './sharing-secrets';
import { approvedTermsOf, assertWithinCeiling } from './update-ceiling';

export function generateCode(): string {
  let code = '';
  for (let i = 0; i < LINK_CODE_LENGTH; i++) code += LINK_CODE_ALPHABET[randomInt(LINK_CODE_ALPHABET.length)];
  return code;
}

export function linkState(row: ShareLinksTable, now: number): LinkInfo['state'] {
  const state = stateOf(row, now);
  if (state === 'active' && row.download_limit !== null && row.download_count >= row.download_limit) return 'exhausted';
  return state;
}

function checkedLimit(limit: number | null): number | null {
  if (limit === null) return null;
  if (!Number.isInteger(limit) || limit < 1 || limit > LINK_MAX_DOWNLOAD_LIMIT) throw new AppError(ERRORS.LINK_LIMIT_INVALID);
  return limit;
}

export interface LinkServiceDeps {
  links: LinkRepository;
  files: FileRepository;
  shares: ShareService;
  policy: SharePolicyEvaluator;
  secrets: SharingSecrets;
  /** The tenant's keyCreate switch: codes mandatory while on. */
  codesRequired: (tenantId: string) => Promise<boolean>;
}

/**
 * Share links, the sharer's side (sharing.ts): create (with the tenant's code rule and policy),
 * change, revoke, and 我的分享 with each link's views and downloads. The visitor's side is
 * LinkVisitService.
 */
export class LinkService {
  constructor(private readonly deps: LinkServiceDeps) {}

  /** The code a link gets: chosen (checked), generated (''), or none (null: refused while codes are mandatory). */
  private async codeFor(tenantId: string, code: string | null): Promise<string | null> {
    if (code === null) {
      if (await this.deps.codesRequired(tenantId)) throw new AppError(ERRORS.LINK_CODE_REQUIRED);
      return null;
    }
    if (code === '') return generateCode();
    if (!LINK_CODE_PATTERN.test(code)) throw new AppError(ERRORS.LINK_CODE_FORMAT);
    return code;
  }

  /** The entry a link may be made of (ShareService.shareable). */
  async linkable(caller: Caller, fileId: string): Promise<FilesTable> {
    const [entry] = await this.deps.shares.shareable(caller, [fileId]);
    return entry!.row;
  }

  /** Checks link settings without making anything (an application carries them until approval). */
  async checkSettings(tenantId: string, s: LinkSettings): Promise<LinkSettings> {
    checkedValidity(s.validityDays);
    checkedLimit(s.downloadLimit);
    if (s.code === null && (await this.deps.codesRequired(tenantId))) throw new AppError(ERRORS.LINK_CODE_REQUIRED);
    if (s.code && !LINK_CODE_PATTERN.test(s.code)) throw new AppError(ERRORS.LINK_CODE_FORMAT);
    return { code: s.code, validityDays: s.validityDays, downloadLimit: s.downloadLimit, previewOnly: Boolean(s.previewOnly) };
  }

  async create(caller: Caller, req: LinkCreateRequest, approved: Approved | null = null, now = Date.now()): Promise<LinkInfo> {
    const detail: Record<string, unknown> = {
      validityDays: req.validityDays,
      downloadLimit: req.downloadLimit,
      previewOnly: req.previewOnly,
      withCode: req.code !== null,
      applicationId: approved?.applicationId ?? null,
    };
    const entry = { action: 'link.create' as const, targets: [target('file', req.fileId, '')], detail, actor: approved?.actor };
    actionLog.record(entry);
    const file = await this.linkable(caller, req.fileId);
    entry.targets = [fileTarget(file)];
    const days = checkedValidity(req.validityDays);
    const limit = checkedLimit(req.downloadLimit);
    const code = await this.codeFor(caller.tenantId, req.code);
    const verdict = await this.deps.policy.evaluate(caller.tenantId, await this.deps.shares.person(caller), 'link', [file], []);
    if (!approved && verdict.required) throw new AppError(ERRORS.SHARE_APPROVAL_REQUIRED, undefined, {}, { reasons: verdict.reasons });
    const expiresAt = expiryOf(days, now);
    // What the approval granted, and what it answered: the link's ceiling (share-terms.ts).
    const approvedTerms: ApprovedLinkTerms | null = approved
      ? { code: code !== null, expiresAt, downloadLimit: limit, previewOnly: Boolean(req.previewOnly), reasons: verdict.reasons, levels: approved.levels }
      : null;
    const token = SharingSecrets.newToken();
    const row: ShareLinksTable = {
      id: newId(),
      tenant_id: caller.tenantId,
      file_id: file.id,
      owner_id: caller.userId,
      token_hash: SharingSecrets.hash(token),
      token_sealed: this.deps.secrets.seal(token),
      code_sealed: code === null ? null : this.deps.secrets.seal(code),
      expires_at: expiresAt,
      download_limit: limit,
      download_count: 0,
      view_count: 0,
      preview_only: req.previewOnly ? 1 : 0,
      created_at: now,
      updated_at: now,
      revoked_at: null,
      application_id: approved?.applicationId ?? null,
      approved_terms: approvedTerms ? JSON.stringify(approvedTerms) : null,
    };
    await this.deps.links.insert(row);
    entry.targets.push(target('link', row.id, file.name));
    return this.describe(row, file, now);
  }

  /** Changes a link of the caller's, never wider than its ceiling (common/api/share-terms.ts). */
  async update(caller: Caller, req: LinkUpdateRequest, now = Date.now()): Promise<LinkInfo> {
    const detail: Record<string, unknown> = {};
    const entry = { action: 'link.update' as const, targets: [target('link', req.id, '')], detail };
    actionLog.record(entry);
    const link = await this.deps.links.find(caller.tenantId, req.id);
    if (!link || link.owner_id !== caller.userId || link.revoked_at !== null) throw new AppError(ERRORS.SHARE_NOT_FOUND);
    const [file] = await this.deps.files.findManyInTenant(caller.tenantId, [link.file_id]);
    entry.targets = [target('link', link.id, file?.name ?? '')];
    Object.assign(detail, { validityDays: req.validityDays, downloadLimit: req.downloadLimit, previewOnly: req.previewOnly });
    const patch: Partial<ShareLinksTable> = { updated_at: now };
    const next: Partial<LinkTerms> = {};
    if (req.code !== undefined) {
      const code = await this.codeFor(caller.tenantId, req.code);
      patch.code_sealed = code === null ? null : this.deps.secrets.seal(code);
      next.code = code !== null;
      detail.codeChanged = true;
    }
    if (req.validityDays !== undefined) patch.expires_at = next.expiresAt = expiryOf(checkedValidity(req.validityDays), now);
    if (req.downloadLimit !== undefined) patch.download_limit = next.downloadLimit = checkedLimit(req.downloadLimit);
    if (req.previewOnly !== undefined) {
      next.previewOnly = Boolean(req.previewOnly);
      patch.preview_only = next.previewOnly ? 1 : 0;
    }
    const current: LinkTerms = {
      code: link.code_sealed !== null,
      expiresAt: link.expires_at === null ? null : Number(link.expires_at),
      downloadLimit: link.download_limit === null ? null : Number(link.download_limit),
      previewOnly: link.preview_only === 1,
    };
    const approved = approvedTermsOf<ApprovedLinkTerms>(link);
    await assertWithinCeiling({
      widened: widerLinkTerms(next, current),
      beyond: approved ? widerLinkTerms(next, approved).map((t) => beyondLinkCeiling(t, approved)) : [],
      approval: approved,
      // Widening a link is making it again: the sharer must still be allowed to share the entry.
      policy: async () => this.deps.policy.evaluate(caller.tenantId, await this.deps.shares.person(caller), 'link', [await this.linkable(caller, link.file_id)], []),
      detail,
    });
    await this.deps.links.update(caller.tenantId, link.id, patch);
    return this.describe({ ...link, ...patch }, file, now);
  }

  /** The caller's link in force of `fileId` (an application that widens it names it). */
  async ownInForce(caller: Caller, id: string, fileId: string): Promise<ShareLinksTable> {
    const link = await this.deps.links.find(caller.tenantId, id);
    if (!link || link.owner_id !== caller.userId || link.revoked_at !== null || link.file_id !== fileId) throw new AppError(ERRORS.SHARE_NOT_FOUND);
    return link;
  }

  /**
   * An approved application that widens a link: the link (same token) takes the approved settings, and
   * they become its ceiling. Recorded as a link.update of the applicant's; `undo` puts the link back
   * as it was (the approval lost a race).
   */
  async widenApproved(caller: Caller, id: string, fileId: string, s: LinkSettings, approved: Approved, now: number): Promise<{ undo: () => Promise<void> }> {
    const detail: Record<string, unknown> = { applicationId: approved.applicationId, validityDays: s.validityDays, downloadLimit: s.downloadLimit, previewOnly: s.previewOnly, withCode: s.code !== null };
    const entry = { action: 'link.update' as const, targets: [target('link', id, '')], detail, actor: approved.actor };
    actionLog.record(entry);
    const link = await this.deps.links.find(caller.tenantId, id);
    if (!link || link.owner_id !== caller.userId || link.revoked_at !== null || link.file_id !== fileId) {
      throw new AppError(ERRORS.APPLY_NOT_PENDING, '要修改的链接已取消，该申请无法通过');
    }
    const file = await this.linkable(caller, fileId);
    entry.targets = [target('link', link.id, file.name), fileTarget(file)];
    const code = await this.codeFor(caller.tenantId, s.code);
    const expiresAt = expiryOf(checkedValidity(s.validityDays), now);
    const limit = checkedLimit(s.downloadLimit);
    const verdict = await this.deps.policy.evaluate(caller.tenantId, await this.deps.shares.person(caller), 'link', [file], []);
    const terms: ApprovedLinkTerms = { code: code !== null, expiresAt, downloadLimit: limit, previewOnly: Boolean(s.previewOnly), reasons: verdict.reasons, levels: approved.levels };
    const patch: Partial<ShareLinksTable> = {
      code_sealed: code === null ? null : this.deps.secrets.seal(code),
      expires_at: expiresAt,
      download_limit: limit,
      preview_only: terms.previewOnly ? 1 : 0,
      application_id: approved.applicationId,
      approved_terms: JSON.stringify(terms),
      updated_at: now,
    };
    await this.deps.links.update(caller.tenantId, link.id, patch);
    const before: Partial<ShareLinksTable> = {};
    for (const k of Object.keys(patch) as Array<keyof ShareLinksTable>) Object.assign(before, { [k]: link[k] });
    return { undo: () => this.deps.links.update(caller.tenantId, link.id, before) };
  }

  async revoke(caller: Caller, ids: readonly string[], now = Date.now()): Promise<{ revoked: number }> {
    const entry = { action: 'link.revoke' as const, targets: ids.map((id) => target('link', id, '')) };
    actionLog.record(entry);
    const rows = await this.deps.links.findMany(caller.tenantId, ids);
    if (rows.length !== new Set(ids).size || rows.some((r) => r.owner_id !== caller.userId)) throw new AppError(ERRORS.SHARE_NOT_FOUND);
    const files = new Map((await this.deps.files.findManyInTenant(caller.tenantId, rows.map((r) => r.file_id))).map((f) => [f.id, f]));
    entry.targets = rows.map((r) => target('link', r.id, files.get(r.file_id)?.name ?? ''));
    return { revoked: (await this.deps.links.revoke(caller.tenantId, caller.userId, ids, now)).length };
  }

  /** Takes back a link an approval had just made when the approval lost a race (no action of its own). */
  async revokeQuietly(caller: Caller, ids: readonly string[], now: number): Promise<void> {
    await this.deps.links.revoke(caller.tenantId, caller.userId, ids, now);
  }

  async mine(caller: Caller, req: MyLinksRequest, now = Date.now()): Promise<MyLinksResponse> {
    const states = req.states?.length ? new Set<string>(req.states) : null;
    const keyword = req.keyword?.trim().toLowerCase() ?? '';
    const files = new Map<string, FilesTable>();
    const page = await filteredPage(
      (after, limit) => this.deps.links.mine(caller.tenantId, caller.userId, after, limit),
      (r) => ({ at: Number(r.created_at), id: r.id }),
      async (rows) => {
        for (const f of await this.deps.files.findManyInTenant(caller.tenantId, rows.map((r) => r.file_id))) files.set(f.id, f);
        return rows.map((r) => {
          const state = linkState(r, now);
          // 'exhausted' is a link in force that gives nothing more: it is listed among the expired.
          const shown = state === 'exhausted' ? 'expired' : state;
          return (!states || states.has(shown) || states.has(state)) && (!keyword || (files.get(r.file_id)?.name.toLowerCase().includes(keyword) ?? false));
        });
      },
      pageSizeOf(req.pageSize),
      decodePosition(req.cursor),
    );
    return { items: page.items.map((r) => this.describe(r, files.get(r.file_id), now)), nextCursor: page.next ? encodePosition(page.next.at, page.next.id) : null };
  }

  describe(row: ShareLinksTable, file: FilesTable | undefined, now: number): LinkInfo {
    return {
      id: row.id,
      file: entryRef(file, row.file_id),
      token: this.deps.secrets.open(row.token_sealed),
      code: row.code_sealed === null ? null : this.deps.secrets.open(row.code_sealed),
      expiresAt: row.expires_at === null ? null : Number(row.expires_at),
      downloadLimit: row.download_limit === null ? null : Number(row.download_limit),
      previewOnly: row.preview_only === 1,
      views: Number(row.view_count),
      downloads: Number(row.download_count),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
      state: linkState(row, now),
      applicationId: row.application_id,
      approvedTerms: approvedTermsOf<ApprovedLinkTerms>(row),
    };
  }
}
