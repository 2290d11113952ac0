import type { ManagedNoticeListRequest, NoticePinRequest, NoticeReadersRequest, NoticeSaveRequest, SystemNoticeListRequest } from '../../../common/api/endpoints/notices';
import { ERRORS } from '../../../common/api/errors';
import {
  NOTICE_AUDIENCE_MAX,
  NOTICE_CONTENT_MAX,
  NOTICE_DEFAULT_PAGE_SIZE,
  NOTICE_MAX_PAGE_SIZE,
  NOTICE_TITLE_MAX,
  type ManagedNotice,
  type ManagedNoticePage,
  type NoticePopup,
  type NoticeReadersPage,
  type NoticeState,
  type SystemNotice,
  type SystemNoticePage,
  type SystemUnreadCount,
} from '../../../common/api/notices';
import type { SystemNoticesTable, SystemNoticeTargetsTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { newId } from '../../ids';
import { PLATFORM_NOTICE_TENANT, type FeedKey, type ManageKey, type NoticeRow, type ReaderScope, type SystemNoticeRepository } from '../../repositories/system-notice-repository';
import { actionLog, target, type ActionEntry } from '../action-log/recorder';
import type { Caller } from '../caller';
import { decodePeopleCursor, toPage } from '../org-cursor';
import type { UnreadCounter } from './delivery';
import type { NoticeSender } from './fanout';
import { hasText, noticeSummary, sanitizeNoticeHtml } from './notice-html';

const YEAR_MS = 366 * 24 * 3600 * 1000;
const POPUP_MAX = 5;

function encodeKey(parts: Array<string | number>): string {
  return Buffer.from(parts.join('.'), 'utf8').toString('base64url');
}

function decodeKey(cursor: string | null | undefined, numbers: number): Array<string | number> | null {
  if (!cursor) return null;
  const bad = () => new AppError(ERRORS.VALIDATION, '分页标记不正确');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw bad();
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (parts.length !== numbers + 1 || !/^[A-Za-z0-9_-]{1,64}$/.test(parts[numbers]!)) throw bad();
  const nums = parts.slice(0, numbers).map(Number);
  if (nums.some((n) => !Number.isSafeInteger(n))) throw bad();
  return [...nums, parts[numbers]!];
}

function pageSize(raw: number | undefined): number {
  if (raw === undefined) return NOTICE_DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(raw) || raw < 1) throw new AppError(ERRORS.VALIDATION, '每页条数不正确');
  return Math.min(raw, NOTICE_MAX_PAGE_SIZE);
}

export function stateOf(row: Pick<SystemNoticesTable, 'state' | 'publish_at'>, now: number): NoticeState {
  if (row.state === 'published') return row.publish_at !== null && Number(row.publish_at) > now ? 'scheduled' : 'published';
  return row.state;
}

function shownNow(row: SystemNoticesTable, now: number): boolean {
  return stateOf(row, now) === 'published';
}

function toReader(row: NoticeRow): SystemNotice {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    summary: row.summary,
    important: row.important === 1,
    pinned: row.pinned === 1,
    platform: row.tenant_id === PLATFORM_NOTICE_TENANT,
    publishedAt: Number(row.publish_at),
    author: { id: row.created_by, nickName: row.author_name },
    read: Number(row.is_read ?? 0) === 1,
  };
}

const noticeTarget = (row: Pick<SystemNoticesTable, 'id' | 'title'>) => target('notice', row.id, row.title);

/**
 * 系统消息: admins write notices (公告管理), readers get the ones addressed to them. The audience is
 * kept as rules and matched when someone reads; publishing, scheduling, pinning or withdrawing
 * changes one row, however many people it reaches. Connected readers are told at once (delivery).
 */
export class SystemNoticeService {
  /** Set by NoticeScheduler: re-arms its timer after a notice was scheduled. */
  onScheduled: () => void = () => undefined;

  constructor(
    private readonly repo: SystemNoticeRepository,
    private readonly counter: UnreadCounter,
    private readonly delivery: NoticeSender,
  ) {}

  // ---- readers -----------------------------------------------------------------------------------

  private scope(caller: Caller): Promise<ReaderScope> {
    return this.counter.scope(caller.tenantId, caller.userId);
  }

  async unread(caller: Caller, now = Date.now()): Promise<SystemUnreadCount> {
    return this.counter.system(await this.scope(caller), now);
  }

  async list(caller: Caller, req: SystemNoticeListRequest, now = Date.now()): Promise<SystemNoticePage> {
    const scope = await this.scope(caller);
    const limit = pageSize(req.pageSize);
    const key = decodeKey(req.cursor, 2);
    const after: FeedKey | null = key ? { pinned: key[0] as number, at: key[1] as number, id: key[2] as string } : null;
    const rows = await this.repo.feed(scope, { read: req.read, keyword: req.keyword?.normalize('NFC') }, after, limit + 1, now);
    const kept = rows.slice(0, limit);
    const last = kept[kept.length - 1];
    return {
      items: kept.map(toReader),
      nextCursor: rows.length > limit && last ? encodeKey([last.pinned, Number(last.publish_at), last.id]) : null,
      unread: await this.counter.system(scope, now),
    };
  }

  async get(caller: Caller, id: string, now = Date.now()): Promise<SystemNotice> {
    const row = await this.repo.findForReader(await this.scope(caller), id, now);
    if (!row) throw new AppError(ERRORS.NOTICE_NOT_FOUND);
    return toReader(row);
  }

  /** Marks notices read (ids the caller may not see are ignored, as if unknown). */
  async markRead(caller: Caller, ids: readonly string[], now = Date.now()): Promise<SystemUnreadCount> {
    const scope = await this.scope(caller);
    const visible = await this.repo.visibleIds(scope, [...new Set(ids)], now);
    await this.repo.markRead(caller.userId, visible, now);
    if (visible.length > 0) this.delivery.systemRead(caller.userId, caller.tenantId);
    return this.counter.system(scope, now);
  }

  async markAllRead(caller: Caller, now = Date.now()): Promise<SystemUnreadCount> {
    const scope = await this.scope(caller);
    if ((await this.repo.markAllRead(scope, now)) > 0) this.delivery.systemRead(caller.userId, caller.tenantId);
    return this.counter.system(scope, now);
  }

  /** The important notices the caller has neither read nor been shown (shown once, at login). */
  async popup(caller: Caller, now = Date.now()): Promise<NoticePopup> {
    return { items: (await this.repo.unpopped(await this.scope(caller), now, POPUP_MAX)).map(toReader) };
  }

  async ackPopup(caller: Caller, ids: readonly string[], now = Date.now()): Promise<null> {
    const visible = await this.repo.visibleIds(await this.scope(caller), [...new Set(ids)], now);
    await this.repo.markRead(caller.userId, visible, now, true);
    if (visible.length > 0) this.delivery.systemRead(caller.userId, caller.tenantId);
    return null;
  }

  // ---- authors -----------------------------------------------------------------------------------

  /** The tenants whose notices the caller manages: their own, and the platform's for a platform admin. */
  private managed(caller: Caller): string[] {
    return caller.platformAdmin ? [caller.tenantId, PLATFORM_NOTICE_TENANT] : [caller.tenantId];
  }

  private async own(caller: Caller, id: string): Promise<SystemNoticesTable> {
    for (const tenantId of this.managed(caller)) {
      const row = await this.repo.find(tenantId, id);
      if (row) return row;
    }
    throw new AppError(ERRORS.NOTICE_NOT_FOUND);
  }

  /** The tenant whose people a notice's audience is counted in: its own, or the caller's for a platform notice. */
  private audienceTenant(caller: Caller, row: Pick<SystemNoticesTable, 'tenant_id'>): string {
    return row.tenant_id === PLATFORM_NOTICE_TENANT ? caller.tenantId : row.tenant_id;
  }

  private async toManaged(caller: Caller, rows: readonly SystemNoticesTable[], now: number): Promise<ManagedNotice[]> {
    const ids = rows.map((r) => r.id);
    const targets = await this.repo.targets(ids);
    const byNotice = new Map<string, SystemNoticeTargetsTable[]>();
    for (const t of targets) byNotice.set(t.notice_id, [...(byNotice.get(t.notice_id) ?? []), t]);
    const out: ManagedNotice[] = [];
    for (const row of rows) {
      const own = byNotice.get(row.id) ?? [];
      const departmentIds = own.filter((t) => t.kind === 'dept').map((t) => t.target_id);
      const userIds = own.filter((t) => t.kind === 'user').map((t) => t.target_id);
      const names = await this.repo.audienceNames(row.tenant_id, departmentIds, userIds);
      const reach = await this.repo.audienceStats(this.audienceTenant(caller, row), row);
      out.push({
        id: row.id,
        title: row.title,
        content: row.content,
        summary: row.summary,
        audience: { all: row.audience_all === 1, departmentIds, userIds },
        audienceNames: Object.fromEntries([...names.departments, ...names.users]),
        important: row.important === 1,
        pinned: row.pinned === 1,
        platform: row.tenant_id === PLATFORM_NOTICE_TENANT,
        state: stateOf(row, now),
        publishAt: row.publish_at === null ? null : Number(row.publish_at),
        withdrawnAt: row.withdrawn_at === null ? null : Number(row.withdrawn_at),
        readCount: reach.read,
        audienceSize: reach.size,
        author: { id: row.created_by, nickName: row.author_name },
        createdAt: Number(row.created_at),
        updatedAt: Number(row.updated_at),
      });
    }
    return out;
  }

  async manageList(caller: Caller, req: ManagedNoticeListRequest, now = Date.now()): Promise<ManagedNoticePage> {
    const limit = pageSize(req.pageSize);
    const key = decodeKey(req.cursor, 1);
    const after: ManageKey | null = key ? { at: key[0] as number, id: key[1] as string } : null;
    const rows = await this.repo.manageList(this.managed(caller), { state: req.state, keyword: req.keyword?.normalize('NFC') }, after, limit + 1, now);
    const kept = rows.slice(0, limit);
    const last = kept[kept.length - 1];
    return { items: await this.toManaged(caller, kept, now), nextCursor: rows.length > limit && last ? encodeKey([Number(last.updated_at), last.id]) : null };
  }

  async manageGet(caller: Caller, id: string, now = Date.now()): Promise<ManagedNotice> {
    return (await this.toManaged(caller, [await this.own(caller, id)], now))[0]!;
  }

  /**
   * 阅读情况: the notice's audience (the caller's tenant for a platform notice) by account, with who
   * read it and when; the counts of the whole audience come with every page.
   */
  async readers(caller: Caller, req: NoticeReadersRequest): Promise<NoticeReadersPage> {
    const row = await this.own(caller, req.id);
    const tenantId = this.audienceTenant(caller, row);
    const limit = pageSize(req.pageSize);
    const [rows, reach] = await Promise.all([this.repo.audiencePage(tenantId, row, req.read, decodePeopleCursor(req.cursor), limit + 1), this.repo.audienceStats(tenantId, row)]);
    const page = toPage(rows, limit, (r) => ({
      id: r.id,
      nickName: r.nick_name,
      website: r.username,
      departmentId: r.department_id,
      readAt: r.read_at === null ? null : Number(r.read_at),
    }));
    return { ...page, audience: reach.size, read: reach.read };
  }

  async save(caller: Caller, req: NoticeSaveRequest, authorName: string, now = Date.now()): Promise<ManagedNotice> {
    const existing = req.id ? await this.own(caller, req.id) : null;
    // Recorded now (a refusal below is recorded refused), completed once the notice is saved.
    const recorded: ActionEntry = { action: existing ? 'notice.update' : 'notice.create', targets: existing ? [noticeTarget(existing)] : [], detail: { publish: req.publish } };
    actionLog.record(recorded);

    const title = req.title.normalize('NFC').trim();
    // eslint-disable-next-line no-control-regex
    if (title === '' || [...title].length > NOTICE_TITLE_MAX || /[\u0000-\u001f\u007f]/.test(title)) throw new AppError(ERRORS.NOTICE_TITLE_INVALID);
    const content = sanitizeNoticeHtml(req.content);
    if (!hasText(content) || Buffer.byteLength(content) > NOTICE_CONTENT_MAX) throw new AppError(ERRORS.NOTICE_CONTENT_INVALID);

    const platform = existing ? existing.tenant_id === PLATFORM_NOTICE_TENANT : req.platform === true;
    if (platform && !caller.platformAdmin) throw new AppError(ERRORS.FORBIDDEN);
    if (existing && req.platform !== undefined && req.platform !== platform) throw new AppError(ERRORS.NOTICE_STATE_INVALID, '不能更改公告的发布范围（本企业 / 全平台）');
    const tenantId = platform ? PLATFORM_NOTICE_TENANT : caller.tenantId;
    const targets = await this.audienceTargets(caller, req, platform);

    let state: SystemNoticesTable['state'];
    let publishAt: number | null;
    if (req.publish === 'draft') {
      if (existing && existing.state !== 'draft') throw new AppError(ERRORS.NOTICE_STATE_INVALID, '已发布或已撤回的公告不能改回草稿');
      state = 'draft';
      publishAt = null;
    } else if (req.publish === 'at') {
      if (req.publishAt === undefined || !Number.isSafeInteger(req.publishAt) || req.publishAt <= now || req.publishAt > now + YEAR_MS) throw new AppError(ERRORS.NOTICE_PUBLISH_AT_INVALID);
      state = 'published';
      publishAt = req.publishAt;
    } else {
      state = 'published';
      // Editing a notice that is out keeps its date; a draft, a scheduled or a withdrawn one comes out now.
      publishAt = existing && shownNow(existing, now) ? Number(existing.publish_at) : now;
    }

    const row: SystemNoticesTable = {
      id: existing?.id ?? newId(),
      tenant_id: tenantId,
      title,
      content,
      summary: noticeSummary(content),
      audience_all: req.audience.all ? 1 : 0,
      important: req.important ? 1 : 0,
      pinned: req.pinned ? 1 : 0,
      state,
      publish_at: publishAt,
      withdrawn_at: null,
      created_by: existing?.created_by ?? caller.userId,
      author_name: existing?.author_name ?? authorName,
      created_at: existing ? Number(existing.created_at) : now,
      updated_at: now,
    };
    await this.repo.save(row, targets, !existing);
    recorded.targets = [noticeTarget(row)];
    if (state === 'published') recorded.action = existing && shownNow(existing, now) ? 'notice.update' : 'notice.publish';
    recorded.detail = { publish: req.publish, publishAt, important: row.important === 1, pinned: row.pinned === 1, audience: req.audience.all ? 'all' : `${targets.length}` };

    const wasShown = existing ? shownNow(existing, now) : false;
    if (shownNow(row, now)) void this.delivery.systemChanged(row, targets.map((t) => ({ ...t, notice_id: row.id })), wasShown ? 'updated' : 'published');
    else if (wasShown && existing) void this.delivery.systemChanged(existing, await this.repo.targets([existing.id]), 'withdrawn');
    if (stateOf(row, now) === 'scheduled') this.onScheduled();
    return this.manageGet(caller, row.id, now);
  }

  private async audienceTargets(caller: Caller, req: NoticeSaveRequest, platform: boolean): Promise<Array<Omit<SystemNoticeTargetsTable, 'notice_id'>>> {
    const { all } = req.audience;
    const departmentIds = [...new Set(req.audience.departmentIds)];
    const userIds = [...new Set(req.audience.userIds)];
    if (platform && (!all || departmentIds.length + userIds.length > 0)) throw new AppError(ERRORS.NOTICE_AUDIENCE_INVALID, '全平台公告的接收范围只能是全部用户');
    if (all) return [];
    if (departmentIds.length + userIds.length === 0) throw new AppError(ERRORS.NOTICE_AUDIENCE_INVALID);
    if (departmentIds.length + userIds.length > NOTICE_AUDIENCE_MAX) throw new AppError(ERRORS.NOTICE_AUDIENCE_INVALID, `接收范围最多选择 ${NOTICE_AUDIENCE_MAX} 个部门或人员`);
    const names = await this.repo.audienceNames(caller.tenantId, departmentIds, userIds);
    // Another tenant's ids are unknown here, exactly like ids that never existed.
    if (departmentIds.some((id) => !names.departments.has(id))) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    if (userIds.some((id) => !names.users.has(id))) throw new AppError(ERRORS.USER_NOT_FOUND);
    return [...departmentIds.map((id) => ({ kind: 'dept' as const, target_id: id })), ...userIds.map((id) => ({ kind: 'user' as const, target_id: id }))];
  }

  async pin(caller: Caller, req: NoticePinRequest, now = Date.now()): Promise<ManagedNotice> {
    const row = await this.own(caller, req.id);
    actionLog.record({ action: 'notice.pin', targets: [noticeTarget(row)], detail: { pinned: req.pinned } });
    if (row.state === 'withdrawn') throw new AppError(ERRORS.NOTICE_STATE_INVALID, '已撤回的公告不能置顶');
    await this.repo.update(row.tenant_id, row.id, { pinned: req.pinned ? 1 : 0, updated_at: now });
    const next = { ...row, pinned: req.pinned ? 1 : 0 };
    if (shownNow(next, now)) void this.delivery.systemChanged(next, await this.repo.targets([row.id]), 'updated');
    return this.manageGet(caller, row.id, now);
  }

  async withdraw(caller: Caller, id: string, now = Date.now()): Promise<ManagedNotice> {
    const row = await this.own(caller, id);
    actionLog.record({ action: 'notice.withdraw', targets: [noticeTarget(row)] });
    if (row.state !== 'published') throw new AppError(ERRORS.NOTICE_STATE_INVALID, row.state === 'draft' ? '草稿尚未发布，无需撤回' : '该公告已撤回');
    await this.repo.update(row.tenant_id, row.id, { state: 'withdrawn', withdrawn_at: now, updated_at: now });
    if (shownNow(row, now)) void this.delivery.systemChanged(row, await this.repo.targets([row.id]), 'withdrawn');
    return this.manageGet(caller, row.id, now);
  }

  async delete(caller: Caller, id: string, now = Date.now()): Promise<null> {
    const row = await this.own(caller, id);
    actionLog.record({ action: 'notice.delete', targets: [noticeTarget(row)] });
    const targets = await this.repo.targets([row.id]);
    await this.repo.delete(row.tenant_id, row.id);
    if (shownNow(row, now)) void this.delivery.systemChanged(row, targets, 'withdrawn');
    return null;
  }
}
