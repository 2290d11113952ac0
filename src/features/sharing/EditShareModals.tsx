import { Checkbox, Input, InputNumber, Modal, Radio, Space } from 'antd';
import { useEffect, useState } from 'react';
import { LINK_CODE_PATTERN, SHARE_PERMISSION_LABELS, type LinkInfo, type LinkUpdateRequest, type SharePermission, type ShareInfo } from '../../../common/api/sharing';
import { ValiditySelect } from '../../components/ValiditySelect';
import { updateLink, updateShare, useTenantSwitches } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';

const row = { display: 'flex', gap: 12, alignItems: 'center', marginBottom: 16 } as const;
const label = { width: 84, flex: 'none', color: 'rgba(0,0,0,0.65)' } as const;

/** Changes a share's permission and/or validity (a new validity counts from now). */
export function EditShareModal({ share, onClose, onSaved }: { share: ShareInfo | null; onClose: () => void; onSaved: () => void }) {
  const { message } = useFeedback();
  const [permission, setPermission] = useState<SharePermission>('download');
  const [validity, setValidity] = useState<number | undefined>();
  useEffect(() => {
    if (share) {
      setPermission(share.permission);
      setValidity(undefined);
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
      onOk={async () => {
        if (!share) return;
        await updateShare({ id: share.id, permission, validityDays: validity });
        message.success('已修改，对方下次访问时生效');
        onSaved();
        onClose();
      }}
      okButtonProps={{ ...({ 'data-testid': 'share-edit-save' } as Record<string, string>) }}
    >
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

/** Changes a link: a new code (generated or chosen, or none when allowed), validity, download limit, preview only. */
export function EditLinkModal({ link, onClose, onSaved }: { link: LinkInfo | null; onClose: () => void; onSaved: () => void }) {
  const { message } = useFeedback();
  const codeRequired = useTenantSwitches().data?.keyCreate ?? true;
  const [codeMode, setCodeMode] = useState<'keep' | 'generate' | 'custom' | 'none'>('keep');
  const [custom, setCustom] = useState('');
  const [validity, setValidity] = useState<number | undefined>();
  const [limit, setLimit] = useState<number | null>(null);
  const [previewOnly, setPreviewOnly] = useState(false);
  useEffect(() => {
    if (!link) return;
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
      onOk={async () => {
        if (!link) return;
        if (codeMode === 'custom' && !LINK_CODE_PATTERN.test(custom)) {
          message.warning('提取码为4位字母或数字');
          throw new Error('invalid code');
        }
        const req: LinkUpdateRequest = { id: link.id, validityDays: validity, downloadLimit: limit, previewOnly };
        if (codeMode !== 'keep') req.code = codeMode === 'none' ? null : codeMode === 'generate' ? '' : custom;
        await updateLink(req);
        message.success(codeMode !== 'keep' ? '已修改；已打开的访问需重新输入新提取码' : '已修改，立即生效');
        onSaved();
        onClose();
      }}
    >
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
          <Checkbox checked={limit !== null} onChange={(e) => setLimit(e.target.checked ? Math.max(link?.downloads ?? 0, 1) : null)}>
            限制
          </Checkbox>
          {limit !== null && <InputNumber min={1} max={100000} value={limit} onChange={(n) => setLimit(n ?? 1)} addonAfter="次" />}
          <span style={{ color: '#999' }}>已下载 {link?.downloads ?? 0} 次</span>
        </Space>
      </div>
      <div style={row}>
        <span style={label}>访问方式</span>
        <Checkbox checked={previewOnly} onChange={(e) => setPreviewOnly(e.target.checked)}>
          仅允许预览
        </Checkbox>
      </div>
    </Modal>
  );
}
