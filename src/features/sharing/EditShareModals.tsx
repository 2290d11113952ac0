import { Alert, Checkbox, Input, InputNumber, Modal, Radio, Space } from 'antd';
import { useEffect, useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import type { ApprovedLinkTerms, ApprovedShareTerms } from '../../../common/api/share-terms';
import { LINK_CODE_PATTERN, SHARE_PERMISSION_LABELS, type LinkInfo, type LinkUpdateRequest, type SharePermission, type ShareInfo } from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { ValiditySelect } from '../../components/ValiditySelect';
import { ApiCallError } from '../../lib/api-client';
import { updateLink, updateShare, useTenantSwitches } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';

const row = { display: 'flex', gap: 12, alignItems: 'center', marginBottom: 16 } as const;
const label = { width: 84, flex: 'none', color: 'rgba(0,0,0,0.65)' } as const;
/** The refusal of a widening update is answered here, in the dialog, not by a toast. */
const quiet = { quietCodes: [ERRORS.SHARE_APPROVAL_REQUIRED.code] };

/** The reasons of a refused widening (SHARE_APPROVAL_REQUIRED), or null for any other failure. */
function approvalReasons(e: unknown): string[] | null {
  if (!(e instanceof ApiCallError) || e.errorCode !== ERRORS.SHARE_APPROVAL_REQUIRED.code) return null;
  const reasons = (e.body as { reasons?: unknown } | undefined)?.reasons;
  return Array.isArray(reasons) ? reasons.filter((r): r is string => typeof r === 'string') : [];
}

const endText = (expiresAt: number | null): string => (expiresAt === null ? '永久有效' : `有效期至 ${formatDateTime(expiresAt)}`);

/** What the approval granted: the most an edit may give without a new application (common/api/share-terms.ts). */
function ApprovedNote({ terms, testId }: { terms: ApprovedShareTerms | ApprovedLinkTerms; testId: string }) {
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
      审批通过：{parts.join('，')}。修改不能超出此范围，超出需重新提交分享申请。
    </div>
  );
}

/** Shown like a refused create's: why the change needs an application; what was typed stays in the form. */
function RefusedAlert({ reasons, testId }: { reasons: string[] | null; testId: string }) {
  if (!reasons) return null;
  return (
    <Alert
      type="warning"
      showIcon
      message="该分享需要审批"
      description={`${reasons.join('；')}。请缩小修改范围，或重新发起分享并提交申请。`}
      style={{ marginBottom: 16 }}
      data-testid={testId}
    />
  );
}

/**
 * Saves an edit: closes on success; on a refused widening shows the reasons and keeps the dialog
 * (and what was typed) open; any other failure was shown by the API client, the dialog stays too.
 */
async function saveEdit(save: () => Promise<unknown>, setRefusal: (r: string[] | null) => void, done: () => void): Promise<void> {
  setRefusal(null);
  try {
    await save();
  } catch (e) {
    setRefusal(approvalReasons(e));
    return;
  }
  done();
}

/** Changes a share's permission and/or validity (a new validity counts from now), within its ceiling. */
export function EditShareModal({ share, onClose, onSaved }: { share: ShareInfo | null; onClose: () => void; onSaved: () => void }) {
  const { message } = useFeedback();
  const [permission, setPermission] = useState<SharePermission>('download');
  const [validity, setValidity] = useState<number | undefined>();
  const [refusal, setRefusal] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (share) {
      setPermission(share.permission);
      setValidity(undefined);
      setRefusal(null);
    }
  }, [share]);
  return (
    <Modal
      open={share !== null}
      title="修改共享"
      okText="保存"
      cancelText="取消"
      destroyOnHidden
      onCancel={onClose}
      confirmLoading={busy}
      onOk={async () => {
        if (!share) return;
        setBusy(true);
        await saveEdit(() => updateShare({ id: share.id, permission, validityDays: validity }, quiet), setRefusal, () => {
          message.success('已修改，对方下次访问时生效');
          onSaved();
          onClose();
        });
        setBusy(false);
      }}
      okButtonProps={{ ...({ 'data-testid': 'share-edit-save' } as Record<string, string>) }}
    >
      <RefusedAlert reasons={refusal} testId="share-edit-refused" />
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
  const [refusal, setRefusal] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!link) return;
    setRefusal(null);
    setCodeMode('keep');
    setCustom('');
    setValidity(undefined);
    setLimit(link.downloadLimit);
    setPreviewOnly(link.previewOnly);
  }, [link]);
  return (
    <Modal
      open={link !== null}
      title="修改链接"
      okText="保存"
      cancelText="取消"
      destroyOnHidden
      onCancel={onClose}
      confirmLoading={busy}
      onOk={async () => {
        if (!link) return;
        if (codeMode === 'custom' && !LINK_CODE_PATTERN.test(custom)) {
          message.warning('提取码为4位字母或数字');
          return;
        }
        const req: LinkUpdateRequest = { id: link.id, validityDays: validity, downloadLimit: limit, previewOnly };
        if (codeMode !== 'keep') req.code = codeMode === 'none' ? null : codeMode === 'generate' ? '' : custom;
        setBusy(true);
        await saveEdit(() => updateLink(req, quiet), setRefusal, () => {
          message.success(codeMode !== 'keep' ? '已修改；已打开的访问需重新输入新提取码' : '已修改，立即生效');
          onSaved();
          onClose();
        });
        setBusy(false);
      }}
      okButtonProps={{ ...({ 'data-testid': 'link-edit-save' } as Record<string, string>) }}
    >
      <RefusedAlert reasons={refusal} testId="link-edit-refused" />
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
