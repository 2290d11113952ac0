import { Button, Checkbox, Input, InputNumber, Radio, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { LINK_CODE_PATTERN, SHARE_PERMISSION_LABELS, type SharePermission, type ShareRecipientInfo } from '../../../common/api/sharing';
import type { LinkSettings } from '../../../common/api/endpoints/links';
import { OrgPicker, type OrgSelection } from '../../components/OrgPicker';
import { useMyGroups, useTenantSwitches } from '../../lib/data/sharing';
import { ValiditySelect } from '../../components/ValiditySelect';

const row = { display: 'flex', gap: 12, alignItems: 'flex-start', marginBottom: 16 } as const;
const label = { width: 84, flex: 'none', lineHeight: '32px', color: 'rgba(0,0,0,0.65)' } as const;


export interface InternalShareValue {
  recipients: ShareRecipientInfo[];
  permission: SharePermission;
  validityDays: number;
}

/** 共享给同事: people and departments from the address-list picker, groups, the permission, the validity. */
export function InternalShareFields({ value, onChange }: { value: InternalShareValue; onChange: (v: InternalShareValue) => void }) {
  const [picking, setPicking] = useState(false);
  const groups = useMyGroups();
  const people = value.recipients.filter((r) => r.type !== 'group');
  const chosenGroups = value.recipients.filter((r) => r.type === 'group');
  const selection: OrgSelection = {
    users: people.filter((r) => r.type === 'user').map((r) => ({ id: r.id, nickName: r.name, website: '' })),
    departments: people.filter((r) => r.type === 'dept').map((r) => ({ id: r.id, name: r.name })),
  };
  const remove = (r: ShareRecipientInfo) => onChange({ ...value, recipients: value.recipients.filter((x) => !(x.type === r.type && x.id === r.id)) });
  return (
    <div data-testid="share-internal">
      <div style={row}>
        <span style={label}>共享对象</span>
        <div style={{ flex: 1 }}>
          <div style={{ minHeight: 32, display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }} data-testid="share-recipients">
            {value.recipients.map((r) => (
              <Tag key={`${r.type}:${r.id}`} color={r.type === 'dept' ? 'blue' : r.type === 'group' ? 'purple' : undefined} closable onClose={() => remove(r)}>
                {r.name}
                {r.type === 'dept' ? '（部门）' : r.type === 'group' ? '（群组）' : ''}
              </Tag>
            ))}
            {value.recipients.length === 0 && <span style={{ color: '#999' }}>尚未选择</span>}
          </div>
          <Space wrap style={{ marginTop: 8 }}>
            <Button onClick={() => setPicking(true)} data-testid="share-pick-people">
              选择人员或部门
            </Button>
            <Select
              mode="multiple"
              placeholder="选择群组"
              style={{ minWidth: 200 }}
              value={chosenGroups.map((g) => g.id)}
              loading={groups.isPending}
              options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
              onChange={(ids: string[]) =>
                onChange({
                  ...value,
                  recipients: [...people, ...ids.map((id) => ({ type: 'group' as const, id, name: groups.data?.find((g) => g.id === id)?.name ?? '' }))],
                })
              }
              data-testid="share-groups"
            />
          </Space>
        </div>
      </div>
      <div style={row}>
        <span style={label}>权限</span>
        <Radio.Group value={value.permission} onChange={(e) => onChange({ ...value, permission: e.target.value as SharePermission })} data-testid="share-permission">
          {(['preview', 'download', 'edit'] as const).map((p) => (
            <Radio key={p} value={p} data-testid={`share-permission-${p}`}>
              {SHARE_PERMISSION_LABELS[p]}
            </Radio>
          ))}
        </Radio.Group>
      </div>
      <div style={{ ...row, marginTop: -8 }}>
        <span style={label} />
        <span style={{ color: '#999', fontSize: 12 }}>
          {value.permission === 'preview' ? '只能在线预览，预览带有查看者账号和时间的水印，不能下载或复制。' : value.permission === 'download' ? '可预览、下载和复制到自己的文件。' : '还可重命名其中的文件、上传新版本。'}
        </span>
      </div>
      <div style={row}>
        <span style={label}>有效期</span>
        <ValiditySelect value={value.validityDays} onChange={(validityDays) => onChange({ ...value, validityDays: validityDays ?? 0 })} testId="share-validity" />
      </div>
      <OrgPicker
        open={picking}
        departments
        excludeSelf
        title="选择共享对象"
        initial={selection}
        onCancel={() => setPicking(false)}
        onOk={(s) => {
          setPicking(false);
          const picked: ShareRecipientInfo[] = [
            ...s.users.map((u) => ({ type: 'user' as const, id: u.id, name: u.nickName || u.website })),
            ...s.departments.map((d) => ({ type: 'dept' as const, id: d.id, name: d.name })),
          ];
          onChange({ ...value, recipients: [...picked, ...chosenGroups] });
        }}
      />
    </div>
  );
}

export type CodeMode = 'generate' | 'custom' | 'none';

export interface LinkFormValue extends Omit<LinkSettings, 'code'> {
  codeMode: CodeMode;
  customCode: string;
  limited: boolean;
}

export function linkSettingsOf(v: LinkFormValue): LinkSettings {
  return {
    code: v.codeMode === 'none' ? null : v.codeMode === 'generate' ? '' : v.customCode,
    validityDays: v.validityDays,
    downloadLimit: v.limited ? v.downloadLimit : null,
    previewOnly: v.previewOnly,
  };
}

/** What is wrong with the link form, or null. */
export function linkFormProblem(v: LinkFormValue): string | null {
  if (v.codeMode === 'custom' && !LINK_CODE_PATTERN.test(v.customCode)) return '提取码为4位字母或数字';
  if (v.limited && (!v.downloadLimit || v.downloadLimit < 1)) return '请填写下载次数';
  return null;
}

/** 外链分享: the extraction code (generated, chosen, or none when the tenant allows), validity, download limit, preview only. */
export function LinkFields({ value, onChange }: { value: LinkFormValue; onChange: (v: LinkFormValue) => void }) {
  const switches = useTenantSwitches();
  const codeRequired = switches.data?.keyCreate ?? true;
  return (
    <div data-testid="share-link-form">
      <div style={row}>
        <span style={label}>提取码</span>
        <Space direction="vertical">
          <Radio.Group value={value.codeMode} onChange={(e) => onChange({ ...value, codeMode: e.target.value as CodeMode })}>
            <Radio value="generate" data-testid="link-code-generate">
              自动生成
            </Radio>
            <Radio value="custom" data-testid="link-code-custom">
              自定义
            </Radio>
            <Radio value="none" disabled={codeRequired} data-testid="link-code-none">
              不设置{codeRequired ? '（管理员要求必须设置）' : ''}
            </Radio>
          </Radio.Group>
          {value.codeMode === 'custom' && (
            <Input
              maxLength={4}
              value={value.customCode}
              onChange={(e) => onChange({ ...value, customCode: e.target.value.trim() })}
              placeholder="4位字母或数字"
              style={{ width: 160 }}
              status={value.customCode && !LINK_CODE_PATTERN.test(value.customCode) ? 'error' : undefined}
              data-testid="link-code-input"
            />
          )}
        </Space>
      </div>
      <div style={row}>
        <span style={label}>有效期</span>
        <ValiditySelect value={value.validityDays} onChange={(validityDays) => onChange({ ...value, validityDays: validityDays ?? 0 })} testId="link-validity" />
      </div>
      <div style={row}>
        <span style={label}>下载次数</span>
        <Space>
          <Radio.Group value={value.limited} onChange={(e) => onChange({ ...value, limited: e.target.value as boolean })}>
            <Radio value={false}>不限</Radio>
            <Radio value={true} data-testid="link-limit-on">
              限制
            </Radio>
          </Radio.Group>
          {value.limited && (
            <InputNumber min={1} max={100000} value={value.downloadLimit ?? 1} onChange={(n) => onChange({ ...value, downloadLimit: n ?? 1 })} addonAfter="次" data-testid="link-limit" />
          )}
        </Space>
      </div>
      <div style={row}>
        <span style={label}>访问方式</span>
        <Checkbox checked={value.previewOnly} onChange={(e) => onChange({ ...value, previewOnly: e.target.checked })} data-testid="link-preview-only">
          仅允许预览（不能下载，预览带水印）
        </Checkbox>
      </div>
    </div>
  );
}
