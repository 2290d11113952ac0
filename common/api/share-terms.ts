/**
 * Approved terms are a ceiling (issue 35): how `share/update` and `shareLink/update` are judged,
 * written once for the server and the edit dialogs.
 *
 * Terms, each ordered from narrow to wide:
 * - a share: permission (preview < download < edit) and end date (earlier < later < until revoked);
 * - a link: code (a code < none), end date, download limit (fewer < more < unlimited) and
 *   preview-only (preview-only < downloadable).
 * A validity is measured as the end date it gives (the update's time + its days), never as a number
 * of days: "7 days" asked a day after a 7-day approval ends a day later than approved. A new code in
 * place of an old one is no wider (a code is a code).
 *
 * An update changes the terms it names and keeps the others. A named term no wider than the current
 * one NARROWS (or keeps) it: always accepted, whatever the policy says now. A term wider than the
 * current one WIDENS it, and is judged:
 * 1. A share or link made by an approved application keeps what that approval granted as its
 *    ceiling (`approvedTerms`, written on the row when the approval made it, with the policy reasons
 *    and the levels the approval answered). Nothing beyond the ceiling is accepted without a new
 *    application, whatever the policy in force says, looser or stricter: SHARE_APPROVAL_REQUIRED with
 *    `reasons` = the policy's reasons in force (if any), then one line per term beyond the ceiling.
 * 2. Up to the ceiling (a term narrowed earlier and widened again) the approval still counts only
 *    while it answers the policy in force: the policy asks no reason the approval did not see and no
 *    more levels than it had. A stricter policy (a new reason, a second level) refuses the widening
 *    with its reasons, exactly like a create; narrowing stays free.
 * 3. A share or link made without approval has the policy in force at update time as its ceiling,
 *    exactly like a create: widening is accepted when the policy would let it be made now without an
 *    application, else SHARE_APPROVAL_REQUIRED with the policy's reasons.
 * 4. The tenant's standing rules hold for every update as for a create: validity bounds, download
 *    limit bounds, codes mandatory while keyCreate is on.
 * 5. `share/create` for an entry and recipient that already have a share in force is a new sharing
 *    decision judged by the policy in force (as any create): its terms and ceiling (an approval's, or
 *    none) replace the old ones. So a share is widened past its ceiling by an application for the
 *    same entry and recipient; a link by an application naming it (ApplicationSubmitRequest.linkId),
 *    which on approval changes that link — same address — and makes its terms the new ceiling.
 * Every update, accepted or refused, is one `share.update` / `link.update` row of the action log;
 * a refused widening names the widened terms in its detail (`widened`).
 */
import { SHARE_PERMISSION_LABELS, SHARE_PERMISSION_RANK, type SharePermission } from './sharing';

export interface ShareTerms {
  permission: SharePermission;
  /** Epoch ms; null = until revoked. */
  expiresAt: number | null;
}

export interface LinkTerms {
  /** The link has an extraction code. */
  code: boolean;
  expiresAt: number | null;
  /** null = unlimited. */
  downloadLimit: number | null;
  previewOnly: boolean;
}

/** What an approval answered: the policy's reasons at the time and the levels it went through. */
export interface ApprovalRecord {
  reasons: string[];
  levels: number;
}

export type ApprovedShareTerms = ShareTerms & ApprovalRecord;
export type ApprovedLinkTerms = LinkTerms & ApprovalRecord;

export type ShareTerm = keyof ShareTerms;
export type LinkTerm = keyof LinkTerms;

/** a later than b, null being "never" (also: more downloads than b, null being unlimited). */
const laterOrMore = (a: number | null, b: number | null): boolean => a !== b && (a === null || (b !== null && a > b));
/** true (a restriction) is narrower than false. */
const lessRestricted = (a: boolean, b: boolean): boolean => !a && b;

const SHARE_WIDER: { [K in ShareTerm]: (a: ShareTerms[K], b: ShareTerms[K]) => boolean } = {
  permission: (a, b) => SHARE_PERMISSION_RANK[a] > SHARE_PERMISSION_RANK[b],
  expiresAt: laterOrMore,
};

const LINK_WIDER: { [K in LinkTerm]: (a: LinkTerms[K], b: LinkTerms[K]) => boolean } = {
  code: lessRestricted,
  expiresAt: laterOrMore,
  downloadLimit: laterOrMore,
  previewOnly: lessRestricted,
};

function wider<T extends object>(rules: { [K in keyof T]: (a: T[K], b: T[K]) => boolean }, next: Partial<T>, than: T): Array<keyof T> {
  return (Object.keys(rules) as Array<keyof T>).filter((k) => next[k] !== undefined && rules[k](next[k] as T[typeof k], than[k]));
}

/** The terms `next` names that are wider than `than`'s. */
export const widerShareTerms = (next: Partial<ShareTerms>, than: ShareTerms): ShareTerm[] => wider(SHARE_WIDER, next, than);
export const widerLinkTerms = (next: Partial<LinkTerms>, than: LinkTerms): LinkTerm[] => wider(LINK_WIDER, next, than);

/** One line (Chinese, for the refusal's reasons) per term beyond the approved ceiling. */
export function beyondShareCeiling(term: ShareTerm, ceiling: ShareTerms): string {
  return term === 'permission' ? `权限超出审批通过的“${SHARE_PERMISSION_LABELS[ceiling.permission]}”` : '有效期超出审批通过的期限';
}

export function beyondLinkCeiling(term: LinkTerm, ceiling: LinkTerms): string {
  switch (term) {
    case 'code':
      return '审批通过的链接须设提取码';
    case 'expiresAt':
      return '有效期超出审批通过的期限';
    case 'downloadLimit':
      return `下载次数超出审批通过的 ${ceiling.downloadLimit ?? 0} 次`;
    case 'previewOnly':
      return '审批通过的链接仅允许预览';
  }
}

/** The approval still answers the policy in force: no reason it did not see, no level it did not pass. */
export function approvalAnswers(record: ApprovalRecord, policy: { required: boolean; reasons: readonly string[]; levels: number }): boolean {
  if (!policy.required) return true;
  return policy.levels <= record.levels && policy.reasons.every((r) => record.reasons.includes(r));
}

/**
 * The reasons an update is refused for (SHARE_APPROVAL_REQUIRED), or null when it may go ahead.
 * `widened`: the terms it widens beyond the current ones; `beyond`: the lines of those beyond the
 * approved ceiling; `approval`: what made the share (null: no approval); `policy`: the policy in force
 * applied to this share or link as a create would be.
 */
export function refusalReasons(
  widened: readonly string[],
  beyond: readonly string[],
  approval: ApprovalRecord | null,
  policy: { required: boolean; reasons: readonly string[]; levels: number },
): string[] | null {
  if (widened.length === 0) return null;
  const asked = policy.required ? [...policy.reasons] : [];
  if (approval === null) return policy.required ? asked : null;
  if (beyond.length > 0) return [...asked, ...beyond];
  return approvalAnswers(approval, policy) ? null : asked;
}
