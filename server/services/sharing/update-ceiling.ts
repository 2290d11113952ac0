import { ERRORS } from '../../../common/api/errors';
import { refusalReasons, type ApprovalRecord } from '../../../common/api/share-terms';
import { AppError } from '../../http/app-error';
import type { PolicyVerdict } from './share-policy';

/** The approved terms a share or link row carries (null: made without approval). */
export function approvedTermsOf<T extends ApprovalRecord>(row: { approved_terms: string | null }): T | null {
  return row.approved_terms === null ? null : (JSON.parse(row.approved_terms) as T);
}

/**
 * Refuses an update that widens beyond its ceiling (common/api/share-terms.ts) with
 * SHARE_APPROVAL_REQUIRED and its reasons, like a create. The policy is applied only when something
 * widens; the widened terms go into the action's detail either way.
 */
export async function assertWithinCeiling(args: {
  widened: readonly string[];
  beyond: readonly string[];
  approval: ApprovalRecord | null;
  policy: () => Promise<PolicyVerdict>;
  detail: Record<string, unknown>;
}): Promise<void> {
  if (args.widened.length === 0) return;
  args.detail.widened = [...args.widened];
  const reasons = refusalReasons(args.widened, args.beyond, args.approval, await args.policy());
  if (reasons) throw new AppError(ERRORS.SHARE_APPROVAL_REQUIRED, undefined, {}, { reasons });
}
