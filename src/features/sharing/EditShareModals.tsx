import { Button, Checkbox, Input, InputNumber, Modal, Radio, Space } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { LINK_CODE_PATTERN, SHARE_PERMISSION_LABELS, type LinkInfo, type SharePermission, type ShareInfo } from '../../../common/api/sharing';
import type { ApplicationSubmitRequest } from '../../../common/api/endpoints/applications';
import type { LinkUpdateRequest } from '../../../common/api/endpoints/links';
import { ValiditySelect } from '../../components/ValiditySelect';
import { submitApplication, updateLink, updateShare, useTenantSwitches } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';
import { ApprovedNote, daysLeft, quietApproval, RefusalPanel, useEditRefusal, type EditRefusal } from './edit-refusal';

const row = { display: 'flex', gap: 12, alignItems: 'center', marginBottom: 16 } as const;
const label = { width: 84, flex: 'none', color: 'rgba(0,0,0,0.65)' } as const;

/**
 * The footer of an edit dialog: 取消, 保存, and after a refused widening 提交申请 (the edit as an
 * application: the share's entry and recipient, or this very link).
 */
function EditFooter({ refusal, busy, onCancel, onSave, onApply, testId }: { refusal: EditRefusal; busy: boolean; onCancel: () => void; onSave: () => void; onApply: () => void; testId: string }): ReactNode {
  return (
    <Space>
      <Button onClick={onCancel}>取消</Button>
      {refusal.refusal?.check && (
        <Button loading={busy} onClick={onApply} data-testid="edit-apply-submit">
          提交申请
        </Button>
      )}
      <Button type="primary" loading={busy} onClick={onSave} data-testid={testId}>
        保存
      </Button>
    </Space>
  );
}

/** Submits the edit as an application; false (nothing sent) when the approver or the reason is missing. */
async function applyForEdit(refusal: EditRefusal, warn: (text: string) => void, body: Omit<ApplicationSubmitRequest, 'reason' | 'approverId'>): Promise<boolean> {
  if (!refusal.approverId) return warn('请选择审批人'), false;
  if (!refusal.reason.trim()) return warn('请填写申请理由'), false;
  try {
    await submitApplication({ ...body, reason: refusal.reason.trim(), approverId: refusal.approverId });
    return true;
  } catch {
    return false; // the API client showed why; the dialog keeps everything
  }
}

/** Changes a share's permission and/or validity (a new validity counts from now), within its ceiling. */
export function EditShareModal({ share, onClose, onSaved }: { share: ShareInfo | null; onClose: () => void; onSaved: () => void }) {
  const { message } = useFeedback();
  const [permission, setPermission] = useState<SharePermission>('download');
  const [validity, setValidity] = useState<number | undefined>();
  const refusal = useEditRefusal();
  const [busy, setBusy] = useState(false);
  const { reset } = refusal;
  useEffect(() => {
    if (share) {
      setPermission(share.permission);
      setValidity(undefined);
      reset();
    }
  }, [share, reset]);
  const finish = (text: string) => {
    message.success(text);
    onSaved();
    onClose();
  };
  async function save(): Promise<void> {
    if (!share) return;
    setBusy(true);
    const recipients = [{ type: share.recipient.type, id: share.recipient.id }];
    const saved = await refusal.save(() => updateShare({ id: share.id, permission, validityDays: validity }, quietApproval), { kind: 'share', fileIds: [share.file.id], recipients });
    setBusy(false);
    if (saved) finish('已修改，对方下次访问时生效');
  }
  async function apply(): Promise<void> {
    if (!share) return;
    setBusy(true);
    const recipients = [{ type: share.recipient.type, id: share.recipient.id }];
    const sent = await applyForEdit(refusal, (t) => void message.warning(t), {
      kind: 'share',
      fileIds: [share.file.id],
      share: { recipients, permission, validityDays: validity ?? daysLeft(share.expiresAt) },
    });
    setBusy(false);
    if (sent) finish('申请已提交，审批通过后修改生效');
  }
  return (
    <Modal
      open={share !== null}
      title="修改共享"
      destroyOnHidden
      onCancel={onClose}
      footer={<EditFooter refusal={refusal} busy={busy} onCancel={onClose} onSave={() => void save()} onApply={() => void apply()} testId="share-edit-save" />}
    >
      <RefusalPanel state={refusal} testId="share-edit-refused" />
      {share?.approvedTerms && <ApprovedNote terms={share.approvedTerms} testId="share-edit-approved" />}
      <div style={row}>
        <span style={label}>权限</span>
        <Radio.Group value={permission} onChange={(e) => setPermission(e.target.value as SharePermission)}>
          {(['preview', 'download', 'edit'] as const).map((p) => (
            <Radio key={p} value={p} data-testid={`share-edit-permission-${p}`}>
              {SHARE_PERMISSION_LABELS[p]}
            </Radio>
          ))}
        </Radio.Group>
      </div>
      <div style={row}>
        <span style={label}>有效期</span>
        <ValiditySelect value={validity} onChange={setValidity} allowKeep testId="share-edit-validity" />
      </div>
    </Modal>
  );
}

/** Changes a link: a new code (generated or chosen, or none when allowed), validity, download limit, preview only; within its ceiling. */
export function EditLinkModal({ link, onClose, onSaved }: { link: LinkInfo | null; onClose: () => void; onSaved: () => void }) {
  const { message } = useFeedback();
  const codeRequired = useTenantSwitches().data?.keyCreate ?? true;
  const [codeMode, setCodeMode] = useState<'keep' | 'generate' | 'custom' | 'none'>('keep');
  const [custom, setCustom] = useState('');
  const [validity, setValidity] = useState<number | undefined>();
  const [limit, setLimit] = useState<number | null>(null);
  const [previewOnly, setPreviewOnly] = useState(false);
  const refusal = useEditRefusal();
  const [busy, setBusy] = useState(false);
  const { reset } = refusal;
  useEffect(() => {
    if (!link) return;
    reset();
    setCodeMode('keep');
    setCustom('');
    setValidity(undefined);
    setLimit(link.downloadLimit);
    setPreviewOnly(link.previewOnly);
  }, [link, reset]);
  const finish = (text: string) => {
    message.success(text);
    onSaved();
    onClose();
  };
  /** The code as asked: unchanged (undefined), none (null), generated ('') or chosen; false when the chosen one is malformed. */
  function codeAsked(): string | null | undefined | false {
    if (codeMode === 'custom' && !LINK_CODE_PATTERN.test(custom)) {
      message.warning('提取码为4位字母或数字');
      return false;
    }
    return codeMode === 'keep' ? undefined : codeMode === 'none' ? null : codeMode === 'generate' ? '' : custom;
  }
  async function save(): Promise<void> {
    const code = codeAsked();
    if (!link || code === false) return;
    const req: LinkUpdateRequest = { id: link.id, validityDays: validity, downloadLimit: limit, previewOnly };
    if (code !== undefined) req.code = code;
    setBusy(true);
    const saved = await refusal.save(() => updateLink(req, quietApproval), { kind: 'link', fileIds: [link.file.id] });
    setBusy(false);
    if (saved) finish(code !== undefined ? '已修改；已打开的访问需重新输入新提取码' : '已修改，立即生效');
  }
  async function apply(): Promise<void> {
    const code = codeAsked();
    if (!link || code === false) return;
    setBusy(true);
    const sent = await applyForEdit(refusal, (t) => void message.warning(t), {
      kind: 'link',
      fileIds: [link.file.id],
      link: { code: code === undefined ? link.code : code, validityDays: validity ?? daysLeft(link.expiresAt), downloadLimit: limit, previewOnly },
      linkId: link.id,
    });
    setBusy(false);
    if (sent) finish('申请已提交，审批通过后本链接按申请修改');
  }
  return (
    <Modal
      open={link !== null}
      title="修改链接"
      destroyOnHidden
      onCancel={onClose}
      footer={<EditFooter refusal={refusal} busy={busy} onCancel={onClose} onSave={() => void save()} onApply={() => void apply()} testId="link-edit-save" />}
    >
      <RefusalPanel state={refusal} testId="link-edit-refused" />
      {link?.approvedTerms && <ApprovedNote terms={link.approvedTerms} testId="link-edit-approved" />}
      <div style={row}>
        <span style={label}>提取码</span>
        <Space direction="vertical">
          <Radio.Group value={codeMode} onChange={(e) => setCodeMode(e.target.value as typeof codeMode)}>
            <Radio value="keep">不变（{link?.code ?? '无'}）</Radio>
            <Radio value="generate">重新生成</Radio>
            <Radio value="custom">自定义</Radio>
            <Radio value="none" disabled={codeRequired}>
              取消提取码
            </Radio>
          </Radio.Group>
          {codeMode === 'custom' && <Input maxLength={4} value={custom} onChange={(e) => setCustom(e.target.value.trim())} placeholder="4位字母或数字" style={{ width: 160 }} />}
        </Space>
      </div>
      <div style={row}>
        <span style={label}>有效期</span>
        <ValiditySelect value={validity} onChange={setValidity} allowKeep testId="link-edit-validity" />
      </div>
      <div style={row}>
        <span style={label}>下载次数</span>
        <Space>
          <Checkbox checked={limit !== null} onChange={(e) => setLimit(e.target.checked ? Math.max(link?.downloads ?? 0, 1) : null)} data-testid="link-edit-limit-on">
            限制
          </Checkbox>
          {limit !== null && <InputNumber min={1} max={100000} value={limit} onChange={(n) => setLimit(n ?? 1)} addonAfter="次" data-testid="link-edit-limit" />}
          <span style={{ color: '#999' }}>已下载 {link?.downloads ?? 0} 次</span>
        </Space>
      </div>
      <div style={row}>
        <span style={label}>访问方式</span>
        <Checkbox checked={previewOnly} onChange={(e) => setPreviewOnly(e.target.checked)} data-testid="link-edit-preview-only">
          仅允许预览
        </Checkbox>
      </div>
    </Modal>
  );
}
