import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Modal, Segmented, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import { APPLICATION_REASON_MAX, shareLinkPath, type ApprovalCheckResponse, type LinkInfo, type ShareKind } from '../../../common/api/sharing';
import type { FileEntry } from '../../../common/api/types';
import { formatDateTime } from '../../../common/format/date';
import { checkApproval, createLink, createShares, submitApplication, useSharingChanged } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';
import { InternalShareFields, LinkFields, linkFormProblem, linkSettingsOf, type InternalShareValue, type LinkFormValue } from './share-forms';

const INITIAL_INTERNAL: InternalShareValue = { recipients: [], permission: 'download', validityDays: 7 };
const INITIAL_LINK: LinkFormValue = { codeMode: 'generate', customCode: '', validityDays: 7, downloadLimit: 10, limited: false, previewOnly: false };

type Step = { kind: 'form' } | { kind: 'apply'; check: ApprovalCheckResponse } | { kind: 'link'; link: LinkInfo } | { kind: 'applied' };

/** The full address of a link, and the text the sharer passes on. */
export function linkText(link: Pick<LinkInfo, 'token' | 'code'>): { url: string; text: string } {
  const url = `${window.location.origin}${shareLinkPath(link.token)}`;
  return { url, text: link.code ? `链接：${url} 提取码：${link.code}` : `链接：${url}` };
}

/**
 * 分享: share the selection with colleagues (people, departments, groups; a permission and a validity)
 * or, for one entry, make a link (code, validity, download limit, preview only). When the tenant's
 * policy wants an application, the dialog turns into one: the reasons, an approver to pick among the
 * allowed ones, and the applicant's reason; the share or link then exists only after approval.
 */
export function ShareDialog({ entries, onClose }: { entries: FileEntry[] | null; onClose: () => void }) {
  const { message } = useFeedback();
  const changed = useSharingChanged();
  const [kind, setKind] = useState<ShareKind>('share');
  const [internal, setInternal] = useState(INITIAL_INTERNAL);
  const [link, setLink] = useState(INITIAL_LINK);
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [approverId, setApproverId] = useState<string | undefined>();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const open = entries !== null;
  const single = entries?.length === 1;

  useEffect(() => {
    if (!open) return;
    setKind('share');
    setInternal(INITIAL_INTERNAL);
    setLink(INITIAL_LINK);
    setStep({ kind: 'form' });
    setReason('');
    setApproverId(undefined);
  }, [open]);

  const fileIds = entries?.map((e) => e.id) ?? [];
  const recipients = internal.recipients.map(({ type, id }) => ({ type, id }));

  async function submitForm(): Promise<void> {
    if (kind === 'share' && internal.recipients.length === 0) return void message.warning('请选择共享对象');
    const problem = kind === 'link' ? linkFormProblem(link) : null;
    if (problem) return void message.warning(problem);
    setBusy(true);
    try {
      const check = await checkApproval({ kind, fileIds, recipients: kind === 'share' ? recipients : undefined });
      if (check.required) {
        setApproverId(check.approvers[0]?.id);
        setStep({ kind: 'apply', check });
        return;
      }
      const quiet = { quietCodes: [ERRORS.SHARE_APPROVAL_REQUIRED.code] };
      if (kind === 'share') {
        await createShares({ fileIds, recipients, permission: internal.permission, validityDays: internal.validityDays }, quiet);
        message.success(`已共享 ${entries?.length ?? 0} 项给 ${internal.recipients.length} 个对象`);
        changed();
        onClose();
      } else {
        const made = await createLink({ fileId: fileIds[0]!, ...linkSettingsOf(link) }, quiet);
        changed();
        setStep({ kind: 'link', link: made });
      }
    } catch (e) {
      // The policy changed between the check and the share: ask again, as an application.
      if ((e as { errorCode?: string }).errorCode === ERRORS.SHARE_APPROVAL_REQUIRED.code) {
        const check = await checkApproval({ kind, fileIds, recipients: kind === 'share' ? recipients : undefined });
        setApproverId(check.approvers[0]?.id);
        setStep({ kind: 'apply', check });
      }
    } finally {
      setBusy(false);
    }
  }

  async function submitApply(): Promise<void> {
    if (!approverId) return void message.warning('请选择审批人');
    if (!reason.trim()) return void message.warning('请填写申请理由');
    setBusy(true);
    try {
      await submitApplication({
        kind,
        fileIds,
        share: kind === 'share' ? { recipients, permission: internal.permission, validityDays: internal.validityDays } : undefined,
        link: kind === 'link' ? linkSettingsOf(link) : undefined,
        reason: reason.trim(),
        approverId,
      });
      changed();
      setStep({ kind: 'applied' });
    } catch {
      // the API client showed why
    } finally {
      setBusy(false);
    }
  }

  const footer =
    step.kind === 'form' ? (
      <Space>
        <Button onClick={onClose}>取消</Button>
        <Button type="primary" loading={busy} onClick={() => void submitForm()} data-testid="share-submit">
          {kind === 'share' ? '共享' : '创建链接'}
        </Button>
      </Space>
    ) : step.kind === 'apply' ? (
      <Space>
        <Button onClick={() => setStep({ kind: 'form' })}>返回修改</Button>
        <Button type="primary" loading={busy} onClick={() => void submitApply()} data-testid="apply-submit">
          提交申请
        </Button>
      </Space>
    ) : (
      <Button type="primary" onClick={onClose} data-testid="share-done">
        完成
      </Button>
    );

  return (
    <Modal open={open} title={entries ? `分享「${entries.length === 1 ? entries[0]!.name : `${entries.length} 项`}」` : ''} onCancel={onClose} footer={footer} width={640} destroyOnHidden>
      <div data-testid="share-dialog">
      {step.kind === 'form' && (
        <>
          <Segmented
            block
            value={kind}
            onChange={(v) => setKind(v as ShareKind)}
            options={[
              { value: 'share', label: '共享给同事' },
              { value: 'link', label: single ? '外链分享' : '外链分享（仅限单个文件或文件夹）', disabled: !single },
            ]}
            style={{ marginBottom: 16 }}
            data-testid="share-kind"
          />
          {kind === 'share' ? <InternalShareFields value={internal} onChange={setInternal} /> : <LinkFields value={link} onChange={setLink} />}
        </>
      )}
      {step.kind === 'apply' && (
        <div data-testid="share-apply">
          <Alert type="warning" showIcon message="该分享需要审批" description={step.check.reasons.join('；')} style={{ marginBottom: 16 }} />
          {step.check.twoLevels && <Alert type="info" showIcon message="本次申请需经两级审批：所选审批人通过后，还需第二级审批人审批。" style={{ marginBottom: 16 }} />}
          <div style={{ marginBottom: 12 }}>
            <div style={{ marginBottom: 4 }}>审批人</div>
            <Select
              value={approverId}
              onChange={setApproverId}
              style={{ width: '100%' }}
              placeholder={step.check.approvers.length ? '选择审批人' : '没有可选的审批人，请联系管理员'}
              options={step.check.approvers.map((a) => ({ value: a.id, label: a.nickName }))}
              data-testid="apply-approver"
            />
          </div>
          <div style={{ marginBottom: 4 }}>申请理由</div>
          <Input.TextArea rows={4} maxLength={APPLICATION_REASON_MAX} showCount value={reason} onChange={(e) => setReason(e.target.value)} placeholder="说明分享的用途和对象" data-testid="apply-reason" />
        </div>
      )}
      {step.kind === 'applied' && (
        <Alert
          type="success"
          showIcon
          message="申请已提交"
          description="审批通过后分享才会生效。可在「分享审批 → 我的申请」中查看进度或撤回。"
          data-testid="apply-submitted"
        />
      )}
      {step.kind === 'link' && <LinkResult link={step.link} />}
      </div>
    </Modal>
  );
}

/** The new link: its address and code, copied together. */
export function LinkResult({ link }: { link: LinkInfo }) {
  const { message } = useFeedback();
  const { url, text } = linkText(link);
  return (
    <div data-testid="link-result">
      <Alert type="success" showIcon message="链接已创建" style={{ marginBottom: 16 }} />
      <div style={{ marginBottom: 8 }}>
        链接：
        <Typography.Text code data-testid="link-url" style={{ wordBreak: 'break-all' }}>
          {url}
        </Typography.Text>
      </div>
      {link.code && (
        <div style={{ marginBottom: 8 }}>
          提取码：<Typography.Text strong data-testid="link-code">{link.code}</Typography.Text>
        </div>
      )}
      <div style={{ color: '#999', marginBottom: 12 }}>
        {link.expiresAt ? `有效期至 ${formatDateTime(link.expiresAt)}` : '永久有效'}
        {link.downloadLimit ? `，可下载 ${link.downloadLimit} 次` : ''}
        {link.previewOnly ? '，仅允许预览' : ''}
      </div>
      <Button
        icon={<CopyOutlined />}
        onClick={() => {
          void navigator.clipboard?.writeText(text).then(
            () => message.success('已复制链接和提取码'),
            () => message.info(text),
          );
        }}
        data-testid="link-copy"
      >
        复制链接{link.code ? '和提取码' : ''}
      </Button>
    </div>
  );
}
