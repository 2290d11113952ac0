import { ERRORS } from '../../../common/api/errors';
import { APPLICATION_TTL_MAX_DAYS, DEFAULT_EXCHANGE_RULES, DEFAULT_SHARE_POLICY, SENSITIVE_KEYWORDS_MAX, type ApproverRule, type ExchangeRules, type FileSecuritySettings, type SharePolicy } from '../../../common/api/sharing';
import type { FileSecurityUpdateRequest } from '../../../common/api/endpoints/shares';
import { DEFAULT_SENSITIVE_KEYWORDS } from '../../../common/transfer/checks';
import { AppError } from '../../http/app-error';
import type { CheckRepository } from '../../repositories/check-repository';
import type { FileRepository } from '../../repositories/file-repository';
import type { SecuritySettingsRepository } from '../../repositories/security-settings-repository';
import type { SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import { actionLog, target } from '../action-log/recorder';
import type { ContentScanJobs } from '../content/content-scan-jobs';
import type { Caller } from '../caller';
import type { TenantSettingsCache } from '../tenant-settings-cache';

const POLICY_KEY = 'sharePolicy';
const EXCHANGE_KEY = 'exchangeRules';

function isRule(v: unknown): v is ApproverRule {
  const r = v as ApproverRule | null;
  return !!r && (r.kind === 'manager' || (r.kind === 'user' && typeof r.userId === 'string') || (r.kind === 'role' && r.role === 'admin'));
}

/** A stored policy laid over the defaults (a setting written by an older version keeps working). */
export function normalizePolicy(raw: unknown): SharePolicy {
  const p = (raw ?? {}) as Partial<SharePolicy>;
  const link: Partial<SharePolicy['link']> = p.link ?? {};
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    link: {
      always: typeof link.always === 'boolean' ? link.always : DEFAULT_SHARE_POLICY.link.always,
      sensitive: typeof link.sensitive === 'boolean' ? link.sensitive : DEFAULT_SHARE_POLICY.link.sensitive,
      folderIds: strings(link.folderIds),
      departmentIds: strings(link.departmentIds),
    },
    internal: { otherDepartment: typeof p.internal?.otherDepartment === 'boolean' ? p.internal.otherDepartment : DEFAULT_SHARE_POLICY.internal.otherDepartment },
    approver: isRule(p.approver) ? p.approver : DEFAULT_SHARE_POLICY.approver,
    secondApprover: isRule(p.secondApprover) ? p.secondApprover : null,
    applicationTtlDays:
      Number.isInteger(p.applicationTtlDays) && p.applicationTtlDays! >= 1 && p.applicationTtlDays! <= APPLICATION_TTL_MAX_DAYS
        ? p.applicationTtlDays!
        : DEFAULT_SHARE_POLICY.applicationTtlDays,
  };
}

export function normalizeExchangeRules(raw: unknown): ExchangeRules {
  const r = (raw ?? {}) as Partial<ExchangeRules>;
  return {
    allowedExtensions: Array.isArray(r.allowedExtensions) ? r.allowedExtensions.filter((x): x is string => typeof x === 'string') : [],
    keywordCheck: typeof r.keywordCheck === 'boolean' ? r.keywordCheck : DEFAULT_EXCHANGE_RULES.keywordCheck,
    maxFileSize: Number.isFinite(r.maxFileSize) && r.maxFileSize! >= 0 ? Math.floor(r.maxFileSize!) : DEFAULT_EXCHANGE_RULES.maxFileSize,
  };
}

const EXTENSION = /^[a-z0-9]{1,16}$/;

/**
 * The tenant's file security settings (`/main/system/fileSecurity`): the sharing policy, the exchange
 * rules and the sensitive keywords. Read on every share, link and check: a change holds at once.
 */
export class FileSecurityService {
  constructor(
    private readonly settings: SecuritySettingsRepository,
    private readonly checks: CheckRepository,
    private readonly lookup: SharingLookupRepository,
    private readonly deps: {
      files: FileRepository;
      /** The per-process copies of the tenant's settings row: a change drops them in every process. */
      tenantSettings: TenantSettingsCache;
      /** A keyword change re-scans the tenant's extracted texts in the background. */
      contentScans?: ContentScanJobs;
    },
  ) {}

  async policy(tenantId: string): Promise<SharePolicy> {
    return normalizePolicy(await this.settings.get(tenantId, POLICY_KEY));
  }

  async exchangeRules(tenantId: string): Promise<ExchangeRules> {
    return normalizeExchangeRules(await this.settings.get(tenantId, EXCHANGE_KEY));
  }

  async sensitiveKeywords(tenantId: string): Promise<string[]> {
    return (await this.checks.tenantSettings(tenantId)).sensitiveKeywords ?? [...DEFAULT_SENSITIVE_KEYWORDS];
  }

  async get(caller: Caller): Promise<FileSecuritySettings> {
    const [sharePolicy, exchangeRules, sensitiveKeywords] = await Promise.all([
      this.policy(caller.tenantId),
      this.exchangeRules(caller.tenantId),
      this.sensitiveKeywords(caller.tenantId),
    ]);
    const [names, contentScan] = await Promise.all([this.namesOf(caller.tenantId, sharePolicy), this.deps.contentScans?.progress(caller.tenantId) ?? null]);
    return { sharePolicy, exchangeRules, sensitiveKeywords, names, contentScan };
  }

  /** Names of the folders, departments and people the policy names (for the page). */
  private async namesOf(tenantId: string, policy: SharePolicy): Promise<Record<string, string>> {
    const names: Record<string, string> = {};
    for (const f of await this.deps.files.findManyInTenant(tenantId, policy.link.folderIds)) names[f.id] = f.name;
    for (const d of await this.lookup.departments(tenantId, policy.link.departmentIds)) names[d.id] = d.name;
    const users = [policy.approver, policy.secondApprover].flatMap((r) => (r?.kind === 'user' ? [r.userId] : []));
    for (const u of await this.lookup.anyPeople(tenantId, users)) names[u.id] = u.nick_name ? `${u.nick_name}（${u.username}）` : u.username;
    return names;
  }

  async update(caller: Caller, req: FileSecurityUpdateRequest, now = Date.now()): Promise<FileSecuritySettings> {
    const detail: Record<string, unknown> = {};
    actionLog.record({ action: 'tenant.sharePolicy', targets: [target('setting', 'fileSecurity', '文件安全')], detail });
    if (req.sharePolicy) {
      // secondApprover may be left out of the body: no second level, as null says.
      const policy = await this.checkedPolicy(caller.tenantId, { ...req.sharePolicy, secondApprover: req.sharePolicy.secondApprover ?? null });
      await this.settings.set(caller.tenantId, POLICY_KEY, policy, now);
      detail.sharePolicy = JSON.stringify(policy);
    }
    if (req.exchangeRules) {
      const rules = normalizeExchangeRules(req.exchangeRules);
      rules.allowedExtensions = [...new Set(rules.allowedExtensions.map((e) => e.trim().replace(/^\./, '').toLowerCase()).filter(Boolean))];
      if (rules.allowedExtensions.some((e) => !EXTENSION.test(e)) || rules.allowedExtensions.length > 500) {
        throw new AppError(ERRORS.POLICY_INVALID, '允许的文件类型只能是字母或数字组成的扩展名');
      }
      await this.settings.set(caller.tenantId, EXCHANGE_KEY, rules, now);
      detail.exchangeRules = JSON.stringify(rules);
    }
    if (req.sensitiveKeywords) {
      const words = [...new Set(req.sensitiveKeywords.map((w) => w.trim()).filter(Boolean))];
      if (words.length > SENSITIVE_KEYWORDS_MAX || words.some((w) => w.length > 32)) throw new AppError(ERRORS.POLICY_INVALID, '敏感词最多200个，每个不超过32个字符');
      const current = await this.checks.tenantSettings(caller.tenantId);
      await this.checks.saveTenantSettings(caller.tenantId, current.blockedExtensions, words);
      // Awaited: once the answer is out, every process has been told (entries' 敏感 marks follow at once).
      await this.deps.tenantSettings.changed(caller.tenantId);
      // Started, not done: the texts are checked in the background (the page shows the progress).
      if (JSON.stringify(current.sensitiveKeywords) !== JSON.stringify(words)) await this.deps.contentScans?.start(caller.tenantId, words);
      detail.sensitiveKeywords = words.join('、');
    }
    return this.get(caller);
  }

  /** Every id the policy names must exist in the caller's tenant (another tenant's looks unknown). */
  private async checkedPolicy(tenantId: string, raw: SharePolicy): Promise<SharePolicy> {
    const policy = normalizePolicy(raw);
    policy.link.folderIds = [...new Set(policy.link.folderIds)];
    policy.link.departmentIds = [...new Set(policy.link.departmentIds)];
    if (policy.link.folderIds.length > 200 || policy.link.departmentIds.length > 200) throw new AppError(ERRORS.POLICY_INVALID, '文件夹或部门最多各200个');
    const folders = await this.deps.files.findManyInTenant(tenantId, policy.link.folderIds);
    if (folders.length !== policy.link.folderIds.length || folders.some((f) => f.is_dir !== 1 || f.deleted_at != null)) throw new AppError(ERRORS.NOT_FOUND);
    const depts = await this.lookup.departments(tenantId, policy.link.departmentIds);
    if (depts.length !== policy.link.departmentIds.length) throw new AppError(ERRORS.DEPT_NOT_FOUND);
    for (const rule of [policy.approver, policy.secondApprover]) {
      if (rule?.kind === 'user' && (await this.lookup.people(tenantId, [rule.userId])).length === 0) throw new AppError(ERRORS.USER_NOT_FOUND);
    }
    return policy;
  }
}
