import { ERRORS } from '../../../common/api/errors';
import { APPLICATION_COMMENT_MAX, APPLICATION_REASON_MAX, SHARE_MAX_FILES, type ApplicationDecisionResponse, type ApplicationDecisionResult, type ApplicationListResponse, type ApprovalCheckResponse, type ShareApplication } from '../../../common/api/sharing';
import type { ApplicationApproveRequest, ApplicationListRequest, ApplicationSubmitRequest, ApprovalCheckRequest } from '../../../common/api/endpoints/applications';
import type { LinkSettings } from '../../../common/api/endpoints/links';
import type { ShareCreateRequest } from '../../../common/api/endpoints/shares';
import type { ShareApplicationsTable, ShareApplicationStepsTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import { newId } from '../../ids';
import type { ApplicationRepository } from '../../repositories/application-repository';
import type { FileRepository } from '../../repositories/file-repository';
import type { PersonRef, SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import { actionLog, actorOfUser, fileTarget, target, type ActionEntry } from '../action-log/recorder';
import type { ActionLogService } from '../action-log-service';
import type { Caller } from '../caller';
import type { FileSecurityService } from './file-security-service';
import type { LinkService } from './link-service';
import type { ApplicationEvent, ShareEvents } from './share-events';
import type { SharePolicyEvaluator } from './share-policy';
import { decodePosition, encodePosition, entryRef, filteredPage, pageSizeOf, userRefOf, type ShareService } from './share-service';

const DAY_MS = 24 * 3600 * 1000;

/** What the notices hear of an application (share-events.ts). */
const eventOf = (app: ShareApplicationsTable): ApplicationEvent => ({
  tenantId: app.tenant_id,
  applicationId: app.id,
  applicantId: app.applicant_id,
  kind: app.kind,
  fileIds: JSON.parse(app.file_ids) as string[],
});

/** What an application asks for; `linkId`: the applicant's link it widens (else a new link). */
type StoredSettings = { share: Omit<ShareCreateRequest, 'fileIds'> } | { link: LinkSettings; linkId?: string };

export interface ApplicationServiceDeps {
  apps: ApplicationRepository;
  shares: ShareService;
  links: LinkService;
  policy: SharePolicyEvaluator;
  security: FileSecurityService;
  lookup: SharingLookupRepository;
  files: FileRepository;
  events: ShareEvents;
}

/**
 * Sharing applications (申请) and their approval (sharing.ts): 待审批 → 已通过 / 已驳回 / 已撤回 /
 * 已过期, one or two levels. Rules: the applicant never approves their own application; only the
 * application's current approver decides it; nothing but a pending application moves (conditional
 * updates: approve after withdraw, or two approvers at once, cannot both happen); the share or link
 * exists only once the last level approved, made then as the applicant's.
 */
export class ApplicationService {
  constructor(private readonly deps: ApplicationServiceDeps) {}

  /** Whether a share or link needs an application, and whom the applicant may pick. */
  async check(caller: Caller, req: ApprovalCheckRequest): Promise<ApprovalCheckResponse> {
    const me = await this.deps.shares.person(caller);
    const rows = req.kind === 'link' ? [await this.deps.links.linkable(caller, this.oneFile(req.fileIds))] : (await this.deps.shares.shareable(caller, req.fileIds)).map((e) => e.row);
    const recipients = req.kind === 'share' ? await this.deps.shares.recipients(caller, req.recipients ?? []) : [];
    const verdict = await this.deps.policy.evaluate(caller.tenantId, me, req.kind, rows, recipients);
    const approvers = await this.deps.policy.approvers(caller.tenantId, me, 1);
    return { required: verdict.required, reasons: verdict.reasons, approvers: approvers.map((p) => userRefOf(p, p.id)), twoLevels: verdict.levels === 2 };
  }

  private oneFile(ids: readonly string[]): string {
    if (ids.length !== 1) throw new AppError(ERRORS.VALIDATION, '一个分享链接只能分享一个文件或文件夹');
    return ids[0]!;
  }

  async submit(caller: Caller, req: ApplicationSubmitRequest, now = Date.now()): Promise<ShareApplication> {
    const id = newId();
    const entry = { action: 'apply.submit' as const, targets: [target('application', id, '')], detail: { kind: req.kind, approverId: req.approverId } as Record<string, unknown> };
    actionLog.record(entry);
    const reason = req.reason.trim();
    if (!reason || reason.length > APPLICATION_REASON_MAX) throw new AppError(ERRORS.APPLY_REASON_REQUIRED);
    if (req.fileIds.length > SHARE_MAX_FILES) throw new AppError(ERRORS.VALIDATION);
    const me = await this.deps.shares.person(caller);
    let settings: StoredSettings;
    let fileIds: string[];
    if (req.kind === 'link') {
      if (!req.link) throw new AppError(ERRORS.VALIDATION);
      fileIds = [(await this.deps.links.linkable(caller, this.oneFile(req.fileIds))).id];
      settings = { link: await this.deps.links.checkSettings(caller.tenantId, req.link) };
      if (req.linkId) {
        await this.deps.links.ownInForce(caller, req.linkId, fileIds[0]!);
        settings.linkId = req.linkId;
        entry.detail.linkId = req.linkId;
      }
    } else {
      if (!req.share) throw new AppError(ERRORS.VALIDATION);
      fileIds = (await this.deps.shares.shareable(caller, req.fileIds)).map((e) => e.row.id);
      const recipients = await this.deps.shares.recipients(caller, req.share.recipients);
      if (recipients.length === 0) throw new AppError(ERRORS.VALIDATION, '请选择共享对象');
      settings = { share: { recipients: recipients.map(({ type, id: rid }) => ({ type, id: rid })), permission: req.share.permission, validityDays: req.share.validityDays } };
    }
    const files = await this.deps.files.findManyInTenant(caller.tenantId, fileIds);
    entry.targets.push(...files.map(fileTarget));
    if (req.approverId === caller.userId) throw new AppError(ERRORS.APPLY_SELF_APPROVAL);
    const candidates = await this.deps.policy.requireApprovers(caller.tenantId, me, 1);
    if (!candidates.some((c) => c.id === req.approverId)) throw new AppError(ERRORS.APPLY_APPROVER_INVALID);
    const policy = await this.deps.security.policy(caller.tenantId);
    const app: ShareApplicationsTable = {
      id,
      tenant_id: caller.tenantId,
      applicant_id: caller.userId,
      kind: req.kind,
      file_ids: JSON.stringify(fileIds),
      settings: JSON.stringify(settings),
      reason,
      state: 'pending',
      level: 1,
      levels: policy.secondApprover ? 2 : 1,
      approver_id: req.approverId,
      comment: '',
      share_ids: '[]',
      link_ids: '[]',
      created_at: now,
      updated_at: now,
      expires_at: now + policy.applicationTtlDays * DAY_MS,
    };
    await this.deps.apps.insert(app, this.step(app, 'submit', 1, caller.userId, reason, now));
    entry.targets[0] = target('application', id, files.map((f) => f.name).join('、').slice(0, 200));
    this.deps.events.applicationSubmitted({ ...eventOf(app), approverId: req.approverId });
    return (await this.describe(caller.tenantId, [app], now))[0]!;
  }

  async withdraw(caller: Caller, id: string, now = Date.now()): Promise<ShareApplication> {
    const entry = { action: 'apply.withdraw' as const, targets: [target('application', id, '')] };
    actionLog.record(entry);
    const app = await this.deps.apps.find(caller.tenantId, id);
    if (!app || app.applicant_id !== caller.userId) throw new AppError(ERRORS.APPLY_NOT_FOUND);
    entry.targets = await this.targetsOf(app);
    await this.expireIfDue(app, now);
    const patch = { state: 'withdrawn' as const, updated_at: now };
    if (!(await this.deps.apps.transition(id, { applicantId: caller.userId }, patch, [this.step(app, 'withdraw', app.level, caller.userId, '', now)]))) {
      throw new AppError(ERRORS.APPLY_NOT_PENDING);
    }
    this.deps.events.applicationChanged({ ...eventOf(app), state: 'withdrawn', nextApproverId: null, deciderId: null, comment: '' });
    return (await this.describe(caller.tenantId, [{ ...app, ...patch }], now))[0]!;
  }

  async approve(caller: Caller, req: ApplicationApproveRequest, now = Date.now()): Promise<ApplicationDecisionResponse> {
    const comment = (req.comment ?? '').trim();
    if (comment.length > APPLICATION_COMMENT_MAX) throw new AppError(ERRORS.VALIDATION, `审批意见不超过${APPLICATION_COMMENT_MAX}字`);
    return this.each(caller, req.ids, 'apply.approve', (app, detail) => this.approveOne(caller, app, comment, req.nextApproverId, detail, now));
  }

  async reject(caller: Caller, ids: readonly string[], rawComment: string, now = Date.now()): Promise<ApplicationDecisionResponse> {
    const comment = rawComment.trim();
    if (!comment || comment.length > APPLICATION_COMMENT_MAX) throw new AppError(ERRORS.APPLY_COMMENT_REQUIRED);
    return this.each(caller, ids, 'apply.reject', async (app, detail) => {
      Object.assign(detail, { level: app.level, comment });
      this.assertDecider(caller, app);
      const patch = { state: 'rejected' as const, comment, updated_at: now };
      if (!(await this.deps.apps.transition(app.id, { level: app.level, approverId: caller.userId }, patch, [this.step(app, 'reject', app.level, caller.userId, comment, now)]))) {
        throw new AppError(ERRORS.APPLY_NOT_PENDING);
      }
      this.deps.events.applicationChanged({ ...eventOf(app), state: 'rejected', nextApproverId: null, deciderId: caller.userId, comment });
      return { ...app, ...patch };
    });
  }

  /**
   * Decides each application on its own (a batch): one refused does not stop the others. Each
   * decision is one action log row, refused ones with their code; a batch of one that is refused
   * answers that refusal.
   */
  private async each(
    caller: Caller,
    ids: readonly string[],
    action: 'apply.approve' | 'apply.reject',
    decide: (app: ShareApplicationsTable, detail: Record<string, unknown>) => Promise<ShareApplicationsTable>,
  ): Promise<ApplicationDecisionResponse> {
    const results: ApplicationDecisionResult[] = [];
    const found = new Map((await this.deps.apps.findMany(caller.tenantId, ids)).map((a) => [a.id, a]));
    const unique = [...new Set(ids)];
    for (const id of unique) {
      const app = found.get(id);
      const detail: Record<string, unknown> = {};
      const entry: ActionEntry = { action, targets: [target('application', id, '')], detail };
      actionLog.record(entry);
      try {
        // Only its applicant and its approvers know an application exists.
        if (!app || !(await this.involves(app, caller.userId))) throw new AppError(ERRORS.APPLY_NOT_FOUND);
        entry.targets = await this.targetsOf(app);
        await this.expireIfDue(app, Date.now());
        const after = await decide(app, detail);
        results.push({ id, ok: true, application: (await this.describe(caller.tenantId, [after], Date.now()))[0]! });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (unique.length === 1) throw err;
        entry.refusedWith = err.code;
        results.push({ id, ok: false, errorCode: err.code, errorMessage: err.message });
      }
    }
    return { results };
  }

  private assertDecider(caller: Caller, app: ShareApplicationsTable): void {
    if (app.state !== 'pending') throw new AppError(ERRORS.APPLY_NOT_PENDING);
    if (app.applicant_id === caller.userId) throw new AppError(ERRORS.APPLY_SELF_APPROVAL);
    if (app.approver_id !== caller.userId) throw new AppError(ERRORS.APPLY_NOT_APPROVER);
  }

  private async approveOne(
    caller: Caller,
    app: ShareApplicationsTable,
    comment: string,
    nextApproverId: string | undefined,
    detail: Record<string, unknown>,
    now: number,
  ): Promise<ShareApplicationsTable> {
    Object.assign(detail, { level: app.level, levels: app.levels, comment });
    this.assertDecider(caller, app);
    const [applicant] = await this.deps.lookup.people(app.tenant_id, [app.applicant_id]);
    if (!applicant) throw new AppError(ERRORS.APPLY_NOT_PENDING, '申请人已不存在');
    if (app.level < app.levels) {
      // Passed on to the second level: never back to the applicant nor to this approver.
      const candidates = (await this.deps.policy.approvers(app.tenant_id, applicant, app.level + 1)).filter((c) => c.id !== caller.userId);
      if (candidates.length === 0) throw new AppError(ERRORS.APPLY_NO_APPROVER);
      const next = nextApproverId ? candidates.find((c) => c.id === nextApproverId) : candidates[0];
      if (!next) throw new AppError(ERRORS.APPLY_APPROVER_INVALID);
      const patch = { level: app.level + 1, approver_id: next.id, comment, updated_at: now };
      if (!(await this.deps.apps.transition(app.id, { level: app.level, approverId: caller.userId }, patch, [this.step(app, 'approve', app.level, caller.userId, comment, now)]))) {
        throw new AppError(ERRORS.APPLY_NOT_PENDING);
      }
      detail.nextApproverId = next.id;
      this.deps.events.applicationChanged({ ...eventOf(app), state: 'pending', nextApproverId: next.id, deciderId: caller.userId, comment });
      return { ...app, ...patch };
    }
    const made = await this.create(app, applicant, now);
    const patch = { state: 'approved' as const, comment, updated_at: now, share_ids: JSON.stringify(made.shareIds), link_ids: JSON.stringify(made.linkIds) };
    const steps = [this.step(app, 'approve', app.level, caller.userId, comment, now), this.step(app, 'created', app.level, null, '', now)];
    if (!(await this.deps.apps.transition(app.id, { level: app.level, approverId: caller.userId }, patch, steps))) {
      // Withdrawn (or decided by someone else) while the share was being made: it must not stay.
      await made.undo();
      throw new AppError(ERRORS.APPLY_NOT_PENDING);
    }
    this.deps.events.applicationChanged({ ...eventOf(app), state: 'approved', nextApproverId: null, deciderId: caller.userId, comment });
    return { ...app, ...patch };
  }

  /** Makes the share or link as the applicant's (their right to share is checked again now). */
  private async create(app: ShareApplicationsTable, applicant: PersonRef, now: number): Promise<{ shareIds: string[]; linkIds: string[]; undo: () => Promise<unknown> }> {
    const as: Caller = { userId: applicant.id, tenantId: app.tenant_id, username: applicant.username, role: applicant.role, passwordChangeType: 0, networkEnv: 'internal' };
    const approved = { applicationId: app.id, levels: app.levels, actor: actorOfUser({ ...applicant, tenant_id: app.tenant_id }) };
    const settings = JSON.parse(app.settings) as StoredSettings;
    const fileIds = JSON.parse(app.file_ids) as string[];
    if ('link' in settings && settings.linkId) {
      const changed = await this.deps.links.widenApproved(as, settings.linkId, fileIds[0]!, settings.link, approved, now);
      return { shareIds: [], linkIds: [settings.linkId], undo: changed.undo };
    }
    if ('link' in settings) {
      const link = await this.deps.links.create(as, { ...settings.link, fileId: fileIds[0]! }, approved, now);
      return { shareIds: [], linkIds: [link.id], undo: () => this.deps.links.revokeQuietly(as, [link.id], now) };
    }
    const made = await this.deps.shares.create(as, { ...settings.share, fileIds }, approved, now);
    const ids = made.shares.map((s) => s.id);
    return { shareIds: ids, linkIds: [], undo: () => this.deps.shares.revokeQuietly(as, ids, now) };
  }

  private step(app: ShareApplicationsTable, kind: ShareApplicationStepsTable['kind'], level: number, actorId: string | null, comment: string, now: number): ShareApplicationStepsTable {
    return { id: newId(), application_id: app.id, tenant_id: app.tenant_id, kind, level, actor_id: actorId, at: now, comment };
  }

  /** A pending application past its time is 已过期 from now on (the sweeper does the same in bulk). */
  private async expireIfDue(app: ShareApplicationsTable, now: number): Promise<void> {
    if (app.state !== 'pending' || Number(app.expires_at) > now) return;
    if (await this.deps.apps.transition(app.id, {}, { state: 'expired', updated_at: now }, [this.step(app, 'expire', app.level, null, '', now)])) {
      this.deps.events.applicationChanged({ ...eventOf(app), state: 'expired', nextApproverId: null, deciderId: null, comment: '', waitedForId: app.approver_id });
    }
    throw new AppError(ERRORS.APPLY_NOT_PENDING);
  }

  /** The sweeper: pending applications past their time become 已过期, each recorded by the server. */
  async expireDue(log: Pick<ActionLogService, 'appendSystem'>, now = Date.now()): Promise<number> {
    let n = 0;
    for (const app of await this.deps.apps.due(now, 500)) {
      if (!(await this.deps.apps.transition(app.id, {}, { state: 'expired', updated_at: now }, [this.step(app, 'expire', app.level, null, '', now)]))) continue;
      n++;
      await log.appendSystem(app.tenant_id, 'apply.expire', [target('application', app.id, '')], { applicantId: app.applicant_id });
      this.deps.events.applicationChanged({ ...eventOf(app), state: 'expired', nextApproverId: null, deciderId: null, comment: '', waitedForId: app.approver_id });
    }
    return n;
  }

  private async targetsOf(app: ShareApplicationsTable) {
    const files = await this.deps.files.findManyInTenant(app.tenant_id, JSON.parse(app.file_ids) as string[]);
    return [target('application', app.id, files.map((f) => f.name).join('、').slice(0, 200)), ...files.map(fileTarget)];
  }

  /** The applicant, or someone who decided or must decide a level of it. */
  private async involves(app: ShareApplicationsTable, userId: string): Promise<boolean> {
    if (app.applicant_id === userId || app.approver_id === userId) return true;
    return ((await this.deps.apps.steps([app.id])).get(app.id) ?? []).some((s) => s.actor_id === userId);
  }

  async get(caller: Caller, id: string, now = Date.now()): Promise<ShareApplication> {
    const app = await this.deps.apps.find(caller.tenantId, id);
    if (!app || !(await this.involves(app, caller.userId))) throw new AppError(ERRORS.APPLY_NOT_FOUND);
    return (await this.describe(caller.tenantId, [app], now))[0]!;
  }

  /** 我的申请. */
  async mine(caller: Caller, req: ApplicationListRequest, now = Date.now()): Promise<ApplicationListResponse> {
    return this.page(caller, req, (after, limit) => this.deps.apps.mine(caller.tenantId, caller.userId, after, limit), now);
  }

  /** 审批: waiting for the caller (box pending, default) or decided by them (box done). */
  async todo(caller: Caller, req: ApplicationListRequest, now = Date.now()): Promise<ApplicationListResponse> {
    if (req.box !== 'done') return this.page(caller, req, (after, limit) => this.deps.apps.pendingFor(caller.tenantId, caller.userId, after, limit), now);
    const stepAt = new Map<string, { at: number; id: string }>();
    return this.page(
      caller,
      req,
      async (after, limit) => {
        const steps = await this.deps.apps.decidedBy(caller.tenantId, caller.userId, after, limit);
        const apps = new Map((await this.deps.apps.findMany(caller.tenantId, steps.map((s) => s.application_id))).map((a) => [a.id, a]));
        return steps.flatMap((s) => {
          const app = apps.get(s.application_id);
          if (!app) return [];
          stepAt.set(`${app.id}:${s.id}`, { at: Number(s.at), id: s.id });
          return [{ ...app, __step: `${app.id}:${s.id}` }];
        });
      },
      now,
      (row) => stepAt.get((row as ShareApplicationsTable & { __step: string }).__step)!,
    );
  }

  private async page(
    caller: Caller,
    req: ApplicationListRequest,
    fetch: (after: { at: number; id: string } | null, limit: number) => Promise<ShareApplicationsTable[]>,
    now: number,
    positionOf: (row: ShareApplicationsTable) => { at: number; id: string } = (r) => ({ at: Number(r.created_at), id: r.id }),
  ): Promise<ApplicationListResponse> {
    const states = req.states?.length ? new Set<string>(req.states) : null;
    const keyword = req.keyword?.trim().toLowerCase() ?? '';
    const names = new Map<string, string>();
    const page = await filteredPage(
      fetch,
      positionOf,
      async (rows) => {
        if (keyword) {
          for (const f of await this.deps.files.findManyInTenant(caller.tenantId, rows.flatMap((r) => JSON.parse(r.file_ids) as string[]))) names.set(f.id, f.name.toLowerCase());
        }
        return rows.map((r) => {
          const state = r.state === 'pending' && Number(r.expires_at) <= now ? 'expired' : r.state;
          if (states && !states.has(state)) return false;
          if (req.kind && r.kind !== req.kind) return false;
          if (!keyword) return true;
          return r.reason.toLowerCase().includes(keyword) || (JSON.parse(r.file_ids) as string[]).some((id) => names.get(id)?.includes(keyword));
        });
      },
      pageSizeOf(req.pageSize),
      decodePosition(req.cursor),
    );
    return { items: await this.describe(caller.tenantId, page.items, now), nextCursor: page.next ? encodePosition(page.next.at, page.next.id) : null };
  }

  /** ShareApplication values (a fixed number of queries per page). */
  async describe(tenantId: string, apps: readonly ShareApplicationsTable[], now: number): Promise<ShareApplication[]> {
    const steps = await this.deps.apps.steps(apps.map((a) => a.id));
    const fileIds = apps.flatMap((a) => JSON.parse(a.file_ids) as string[]);
    const files = new Map((await this.deps.files.findManyInTenant(tenantId, fileIds)).map((f) => [f.id, f]));
    const people = new Map(
      (await this.deps.lookup.anyPeople(tenantId, [...apps.flatMap((a) => [a.applicant_id, a.approver_id ?? '']), ...[...steps.values()].flat().map((s) => s.actor_id ?? '')].filter(Boolean))).map((p) => [p.id, p]),
    );
    const settingsOf = apps.map((a) => JSON.parse(a.settings) as StoredSettings);
    const recipients = settingsOf.flatMap((s) => ('share' in s ? s.share.recipients : []));
    const recipientNames = await this.deps.shares.recipientNames(tenantId, recipients, true);
    return apps.map((a, i) => {
      const settings = settingsOf[i]!;
      const applicant = people.get(a.applicant_id);
      const expired = a.state === 'pending' && Number(a.expires_at) <= now;
      return {
        id: a.id,
        kind: a.kind,
        applicant: { ...userRefOf(applicant, a.applicant_id), account: applicant?.username ?? '' },
        files: (JSON.parse(a.file_ids) as string[]).map((id) => entryRef(files.get(id), id)),
        share:
          'share' in settings
            ? { ...settings.share, recipientNames: settings.share.recipients.map((r) => ({ ...r, name: recipientNames.get(`${r.type}:${r.id}`) ?? '（已删除）' })) }
            : null,
        link: 'link' in settings ? settings.link : null,
        linkId: 'link' in settings ? (settings.linkId ?? null) : null,
        reason: a.reason,
        state: expired ? 'expired' : a.state,
        level: a.level,
        levels: a.levels,
        approver: a.approver_id ? userRefOf(people.get(a.approver_id), a.approver_id) : null,
        createdAt: Number(a.created_at),
        updatedAt: Number(a.updated_at),
        expiresAt: Number(a.expires_at),
        comment: a.comment,
        history: (steps.get(a.id) ?? []).map((s) => ({
          kind: s.kind,
          level: s.level,
          actor: s.actor_id ? userRefOf(people.get(s.actor_id), s.actor_id) : null,
          at: Number(s.at),
          comment: s.comment,
        })),
        shareIds: JSON.parse(a.share_ids) as string[],
        linkIds: JSON.parse(a.link_ids) as string[],
      };
    });
  }
}
