import { ERRORS } from '../../../common/api/errors';
import type { ApproverRule, ShareKind, ShareRecipient } from '../../../common/api/sharing';
import type { FilesTable } from '../../db/schema';
import { AppError } from '../../http/app-error';
import type { ContentTextRepository } from '../../repositories/content-text-repository';
import type { ShareGrantRepository } from '../../repositories/share-grants';
import type { PersonRef, SharingLookupRepository } from '../../repositories/sharing-lookup-repository';
import type { FileSecurityService } from './file-security-service';

export interface PolicyVerdict {
  required: boolean;
  reasons: string[];
  /** Levels of approval (1, or 2 with a second approver). */
  levels: number;
}

/**
 * The tenant's sharing policy applied (sharing.ts SharePolicy): whether a share or link needs an
 * application, and who may approve it. Never the applicant themself.
 */
export class SharePolicyEvaluator {
  constructor(
    private readonly security: FileSecurityService,
    private readonly lookup: SharingLookupRepository,
    private readonly grants: ShareGrantRepository,
    /** Keyword hits in the files' extracted texts (sensitive words in content). */
    private readonly contentTexts?: ContentTextRepository,
  ) {}

  async evaluate(tenantId: string, applicant: PersonRef, kind: ShareKind, entries: readonly FilesTable[], recipients: readonly ShareRecipient[]): Promise<PolicyVerdict> {
    const policy = await this.security.policy(tenantId);
    const reasons: string[] = [];
    if (kind === 'link') {
      if (policy.link.always) reasons.push('所有外链分享均需审批');
      if (policy.link.sensitive && (await this.hasSensitive(tenantId, entries))) reasons.push('分享的文件含有敏感词');
      if (policy.link.folderIds.length > 0) {
        const configured = new Set(policy.link.folderIds);
        const chains = await this.grants.ancestors(tenantId, entries.map((e) => e.id));
        if ([...chains.values()].some((chain) => chain.some((id) => configured.has(id)))) reasons.push('文件位于需审批的文件夹中');
      }
      if (policy.link.departmentIds.length > 0) {
        const chain = await this.lookup.departmentChain(tenantId, applicant.department_id);
        const configured = new Set(policy.link.departmentIds);
        if (chain.some((d) => configured.has(d.id))) reasons.push('您所在的部门分享外链需审批');
      }
    } else if (policy.internal.otherDepartment && (await this.reachesOtherDepartment(tenantId, applicant, recipients))) {
      reasons.push('共享给其他部门需审批');
    }
    return { required: reasons.length > 0, reasons, levels: policy.secondApprover ? 2 : 1 };
  }

  private async hasSensitive(tenantId: string, entries: readonly FilesTable[]): Promise<boolean> {
    const words = (await this.security.sensitiveKeywords(tenantId)).filter(Boolean).map((w) => w.toLowerCase());
    if (words.length === 0) return false;
    if (entries.some((e) => words.some((w) => e.name.toLowerCase().includes(w)))) return true;
    const folders = entries.filter((e) => e.is_dir === 1).map((e) => e.id);
    if (await this.lookup.treeHasKeyword(tenantId, folders, words)) return true;
    if (!this.contentTexts) return false;
    // The text inside: hits are recorded with the keyword as the list spells it.
    const listed = (await this.security.sensitiveKeywords(tenantId)).filter(Boolean);
    const blobs = entries.filter((e) => e.is_dir === 0 && e.blob_id).map((e) => e.blob_id!);
    if ((await this.contentTexts.hitsOf(blobs, listed)).size > 0) return true;
    return this.contentTexts.treeHasHit(tenantId, folders, listed);
  }

  private async reachesOtherDepartment(tenantId: string, applicant: PersonRef, recipients: readonly ShareRecipient[]): Promise<boolean> {
    const own = applicant.department_id ? new Set(await this.lookup.subtree(tenantId, applicant.department_id)) : new Set<string>();
    const userIds = recipients.filter((r) => r.type === 'user').map((r) => r.id);
    for (const p of await this.lookup.people(tenantId, userIds)) if (!p.department_id || !own.has(p.department_id)) return true;
    for (const r of recipients) {
      if (r.type === 'dept' && !own.has(r.id)) return true;
      if (r.type === 'group' && (await this.lookup.groupMemberDepartments(r.id)).some((d) => !d || !own.has(d))) return true;
    }
    return false;
  }

  /** Who may approve level `level` (1 or 2) of an application by `applicant`; never the applicant. */
  async approvers(tenantId: string, applicant: PersonRef, level: number): Promise<PersonRef[]> {
    const policy = await this.security.policy(tenantId);
    const rule = level === 1 ? policy.approver : policy.secondApprover;
    if (!rule) return [];
    return this.candidates(tenantId, applicant, rule);
  }

  private async candidates(tenantId: string, applicant: PersonRef, rule: ApproverRule): Promise<PersonRef[]> {
    const admins = async () => (await this.lookup.admins(tenantId)).filter((a) => a.id !== applicant.id);
    if (rule.kind === 'role') return admins();
    if (rule.kind === 'user') {
      const [user] = await this.lookup.people(tenantId, [rule.userId]);
      return user && user.id !== applicant.id ? [user] : admins();
    }
    // The nearest manager above the applicant who is not the applicant; none: the tenant's admins.
    for (const d of await this.lookup.departmentChain(tenantId, applicant.department_id)) {
      if (!d.manager_id || d.manager_id === applicant.id) continue;
      const [manager] = await this.lookup.people(tenantId, [d.manager_id]);
      if (manager) return [manager];
    }
    return admins();
  }

  /** The candidates, or APPLY_NO_APPROVER when nobody may approve. */
  async requireApprovers(tenantId: string, applicant: PersonRef, level: number): Promise<PersonRef[]> {
    const list = await this.approvers(tenantId, applicant, level);
    if (list.length === 0) throw new AppError(ERRORS.APPLY_NO_APPROVER);
    return list;
  }
}
