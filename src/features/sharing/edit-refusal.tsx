import { Alert, Input, Select } from 'antd';
import { useCallback, useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { ApprovedLinkTerms, ApprovedShareTerms } from '../../../common/api/share-terms';
import { APPLICATION_REASON_MAX, SHARE_PERMISSION_LABELS, type ApprovalCheckResponse } from '../../../common/api/sharing';
import type { ApprovalCheckRequest } from '../../../common/api/endpoints/applications';
import { formatDateTime } from '../../../common/format/date';
import { ApiCallError } from '../../lib/api-client';
import { checkApproval } from '../../lib/data/sharing';

/**
 * What the edit dialogs of 我的分享 show about a share's or link's ceiling (common/api/share-terms.ts):
 * the approved terms, and a refused widening the way a refused create shows it (the reasons, whom to
 * apply to, the applicant's reason), with the dialog and everything typed kept.
 */

/** The refusal of a widening update is answered in the dialog, not by a toast. */
export const quietApproval = { quietCodes: [ERRORS.SHARE_APPROVAL_REQUIRED.code] };

/** The reasons of a refused widening (SHARE_APPROVAL_REQUIRED), or null for any other failure. */
export function approvalReasons(e: unknown): string[] | null {
  if (!(e instanceof ApiCallError) || e.errorCode !== ERRORS.SHARE_APPROVAL_REQUIRED.code) return null;
  const reasons = (e.body as { reasons?: unknown } | undefined)?.reasons;
  return Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string') : [];
}

const endText = (expiresAt: number | null): string => (expiresAt === null ? '永久有效' : `有效期至 ${formatDateTime(expiresAt)}`);

/** What the approval granted: the most an edit may give without a new application. */
export function ApprovedNote({ terms, testId }: { terms: ApprovedShareTerms | ApprovedLinkTerms; testId: string }) {
  const parts =
    'permission' in terms
      ? [`权限「${SHARE_PERMISSION_LABELS[terms.permission]}」`, endText(terms.expiresAt)]
      : [
          terms.code ? '须设提取码' : '可不设提取码',
          endText(terms.expiresAt),
          terms.downloadLimit === null ? '下载次数不限' : `最多下载 ${terms.downloadLimit} 次`,
          terms.previewOnly ? '仅允许预览' : '允许下载',
        ];
  return (
    <div style={{ color: 'rgba(0,0,0,0.45)', marginBottom: 16 }} data-testid={testId}>
      审批通过：{parts.join('，')}。修改不能超出此范围，超出需提交申请。
    </div>
  );
}

interface Refusal {
  reasons: string[];
  /** Whom the sharer may apply to (null: the check failed, the client showed why). */
  check: ApprovalCheckResponse | null;
}

/** Whole days an unchanged validity has left, for an application (0 = until revoked). */
export function daysLeft(expiresAt: number | null, now = Date.now()): number {
  return expiresAt === null ? 0 : Math.max(1, Math.ceil((expiresAt - now) / (24 * 3600 * 1000)));
}

/** The refusal state of one edit dialog: its save, the reasons, and the application it may turn into. */
export function useEditRefusal() {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [approverId, setApproverId] = useState<string | undefined>();
  const [reason, setReason] = useState('');
  const reset = useCallback((): void => {
    setRefusal(null);
    setApproverId(undefined);
    setReason('');
  }, []);
  return {
    refusal,
    approverId,
    setApproverId,
    reason,
    setReason,
    reset,
    /** Runs a save: true when saved. A refused widening becomes the panel; other failures were shown by the client. */
    async save(run: () => Promise<unknown>, check: ApprovalCheckRequest): Promise<boolean> {
      try {
        await run();
        return true;
      } catch (e) {
        const reasons = approvalReasons(e);
        if (!reasons) return false;
        const answer = await checkApproval(check).catch(() => null);
        setRefusal({ reasons, check: answer });
        setApproverId((id) => id ?? answer?.approvers[0]?.id);
        return false;
      }
    },
  };
}

export type EditRefusal = ReturnType<typeof useEditRefusal>;

/** The refusal like a refused create's: why, and (to go further) whom to apply to and why. */
export function RefusalPanel({ state, testId }: { state: EditRefusal; testId: string }) {
  const { refusal } = state;
  if (!refusal) return null;
  return (
    <div data-testid={testId} style={{ marginBottom: 16 }}>
      <Alert
        type="warning"
        showIcon
        message="该分享需要审批"
        description={`${refusal.reasons.join('；')}。请缩小修改范围，或选择审批人并填写理由提交申请。`}
        style={{ marginBottom: 12 }}
      />
      {refusal.check?.twoLevels && <Alert type="info" showIcon message="本次申请需经两级审批：所选审批人通过后，还需第二级审批人审批。" style={{ marginBottom: 12 }} />}
      {refusal.check && (
        <>
          <div style={{ marginBottom: 4 }}>审批人</div>
          <Select
            value={state.approverId}
            onChange={state.setApproverId}
            style={{ width: '100%', marginBottom: 12 }}
            placeholder={refusal.check.approvers.length ? '选择审批人' : '没有可选的审批人，请联系管理员'}
            options={refusal.check.approvers.map((a) => ({ value: a.id, label: a.nickName }))}
            data-testid="edit-apply-approver"
          />
          <div style={{ marginBottom: 4 }}>申请理由</div>
          <Input.TextArea
            rows={3}
            maxLength={APPLICATION_REASON_MAX}
            showCount
            value={state.reason}
            onChange={(e) => state.setReason(e.target.value)}
            placeholder="说明为什么需要放宽"
            data-testid="edit-apply-reason"
          />
        </>
      )}
    </div>
  );
}
