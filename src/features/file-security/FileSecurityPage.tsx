import { Alert, Button, Card, Flex, InputNumber, Progress, Radio, Select, Space, Spin, Switch, Tag } from 'antd';
import { formatDateTime } from '../../../common/format/date';
import { useEffect, useState } from 'react';
import { FILES } from '../../../common/api/endpoints/files';
import type { ApproverRule, ExchangeRules, SharePolicy } from '../../../common/api/sharing';
import { OrgPicker } from '../../components/OrgPicker';
import { OnlineOnly } from '../../components/OnlineOnly';
import { api } from '../../lib/api';
import { SHARING_KEYS, updateFileSecurity, useContentScan, useFileSecurity } from '../../lib/data/sharing';
import { useFeedback } from '../../lib/feedback/feedback';
import { useQueryClient } from '@tanstack/react-query';

const MB = 1024 * 1024;
const row = { display: 'flex', gap: 12, alignItems: 'center', marginBottom: 14, flexWrap: 'wrap' } as const;
const label = { width: 150, flex: 'none', color: 'rgba(0,0,0,0.65)' } as const;

/** Who approves a level: the applicant's department manager, a named person, or the admins. */
function ApproverField({ value, onChange, names, allowNone, testId }: { value: ApproverRule | null; onChange: (r: ApproverRule | null) => void; names: Record<string, string>; allowNone?: boolean; testId: string }) {
  const [picking, setPicking] = useState(false);
  const kind = value?.kind ?? 'none';
  return (
    <Space wrap data-testid={testId}>
      <Radio.Group
        value={kind}
        onChange={(e) => {
          const k = e.target.value as string;
          if (k === 'none') onChange(null);
          else if (k === 'manager') onChange({ kind: 'manager' });
          else if (k === 'role') onChange({ kind: 'role', role: 'admin' });
          else setPicking(true);
        }}
      >
        {allowNone && <Radio value="none">无</Radio>}
        <Radio value="manager">申请人部门负责人</Radio>
        <Radio value="user">指定人员</Radio>
        <Radio value="role">管理员</Radio>
      </Radio.Group>
      {value?.kind === 'user' && <Tag>{names[value.userId] ?? value.userId}</Tag>}
      <OrgPicker
        open={picking}
        single
        required="请选择一位审批人"
        title="选择审批人"
        onCancel={() => setPicking(false)}
        onOk={(s) => {
          setPicking(false);
          const u = s.users[0];
          if (u) {
            names[u.id] = u.nickName;
            onChange({ kind: 'user', userId: u.id });
          }
        }}
      />
    </Space>
  );
}

/**
 * 文件安全 (/main/system/fileSecurity, admins): when a share or link needs an application and who
 * approves it (one or two levels), the exchange area's rules, and the tenant's sensitive keywords.
 * Each save holds at once for every new share, link and check.
 */
export function FileSecurityPage() {
  const { message } = useFeedback();
  const client = useQueryClient();
  const settings = useFileSecurity();
  const [policy, setPolicy] = useState<SharePolicy | null>(null);
  const [rules, setRules] = useState<ExchangeRules | null>(null);
  const [keywords, setKeywords] = useState<string[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});
  const [pickDepts, setPickDepts] = useState(false);
  const [folderOptions, setFolderOptions] = useState<Array<{ value: string; label: string }>>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!settings.data) return;
    setPolicy(settings.data.sharePolicy);
    setRules(settings.data.exchangeRules);
    setKeywords(settings.data.sensitiveKeywords);
    setNames({ ...settings.data.names });
  }, [settings.data]);

  if (settings.isError) return <Alert type="error" showIcon message="无法读取文件安全设置" />;
  if (!policy || !rules) return <Spin />;

  const searchFolders = async (keyword: string) => {
    if (!keyword.trim()) return;
    const r = await api.call(FILES.unifiedSearch, { keyword: keyword.trim(), pageSize: 50 });
    setFolderOptions(r.items.filter((i) => i.isDir).map((i) => ({ value: i.id, label: [i.spaceName, ...i.path, i.name].filter(Boolean).join(' / ') })));
  };

  async function save(): Promise<void> {
    setSaving(true);
    try {
      const next = await updateFileSecurity({ sharePolicy: policy!, exchangeRules: rules!, sensitiveKeywords: keywords });
      client.setQueryData(['account', 'fileSecurity'], next);
      client.setQueryData(SHARING_KEYS.contentScan, next.contentScan);
      message.success('文件安全设置已保存，立即生效');
    } finally {
      setSaving(false);
    }
  }

  const link = policy.link;
  return (
    <Flex vertical gap={16} style={{ maxWidth: 960 }} data-testid="file-security-page">
      <Card title="分享审批策略" size="small">
        <div style={row}>
          <span style={label}>外链分享需要审批</span>
          <Space wrap>
            <Switch checked={link.always} onChange={(always) => setPolicy({ ...policy, link: { ...link, always } })} data-testid="policy-link-always" /> 所有外链
            <Switch checked={link.sensitive} onChange={(sensitive) => setPolicy({ ...policy, link: { ...link, sensitive } })} /> 含敏感词的文件
          </Space>
        </div>
        <div style={row}>
          <span style={label}>指定文件夹中的外链</span>
          <Select
            mode="multiple"
            showSearch
            filterOption={false}
            style={{ minWidth: 360, flex: 1 }}
            placeholder="搜索文件夹名称添加"
            value={link.folderIds}
            onSearch={(k) => void searchFolders(k)}
            options={[...link.folderIds.filter((id) => !folderOptions.some((o) => o.value === id)).map((id) => ({ value: id, label: names[id] ?? id })), ...folderOptions]}
            onChange={(ids: string[]) => {
              for (const o of folderOptions) names[o.value] = o.label;
              setPolicy({ ...policy, link: { ...link, folderIds: ids } });
            }}
          />
        </div>
        <div style={row}>
          <span style={label}>指定部门人员的外链</span>
          <Space wrap>
            {link.departmentIds.map((id) => (
              <Tag key={id} closable onClose={() => setPolicy({ ...policy, link: { ...link, departmentIds: link.departmentIds.filter((d) => d !== id) } })}>
                {names[id] ?? id}
              </Tag>
            ))}
            <Button size="small" onClick={() => setPickDepts(true)}>
              选择部门
            </Button>
          </Space>
        </div>
        <div style={row}>
          <span style={label}>内部共享需要审批</span>
          <Switch checked={policy.internal.otherDepartment} onChange={(otherDepartment) => setPolicy({ ...policy, internal: { otherDepartment } })} /> 共享给本部门以外的人员、部门或群组时
        </div>
        <div style={row}>
          <span style={label}>一级审批人</span>
          <ApproverField value={policy.approver} onChange={(r) => r && setPolicy({ ...policy, approver: r })} names={names} testId="policy-approver" />
        </div>
        <div style={row}>
          <span style={label}>二级审批人</span>
          <ApproverField value={policy.secondApprover} onChange={(r) => setPolicy({ ...policy, secondApprover: r })} names={names} allowNone testId="policy-second-approver" />
        </div>
        <div style={row}>
          <span style={label}>申请有效期</span>
          <InputNumber min={1} max={90} value={policy.applicationTtlDays} onChange={(n) => setPolicy({ ...policy, applicationTtlDays: n ?? 7 })} addonAfter="天" />
          <span style={{ color: '#999' }}>超过未审批的申请自动过期</span>
        </div>
      </Card>
      <Card title="交换区规则" size="small">
        <div style={row}>
          <span style={label}>允许交换的文件类型</span>
          <Select
            mode="tags"
            style={{ minWidth: 360, flex: 1 }}
            placeholder="不填则允许除禁止上传类型外的所有类型，例如 pdf、docx"
            value={rules.allowedExtensions}
            onChange={(v: string[]) => setRules({ ...rules, allowedExtensions: v.map((x) => x.replace(/^\./, '').toLowerCase()) })}
          />
        </div>
        <div style={row}>
          <span style={label}>敏感词检查</span>
          <Switch checked={rules.keywordCheck} onChange={(keywordCheck) => setRules({ ...rules, keywordCheck })} /> 检查文件名和文本内容
        </div>
        <div style={row}>
          <span style={label}>单个文件大小上限</span>
          <InputNumber min={0} value={Math.round(rules.maxFileSize / MB)} onChange={(n) => setRules({ ...rules, maxFileSize: (n ?? 0) * MB })} addonAfter="MB" />
          <span style={{ color: '#999' }}>0 表示不限制</span>
        </div>
      </Card>
      <Card title="敏感词" size="small">
        <Select mode="tags" style={{ width: '100%' }} value={keywords} onChange={setKeywords} placeholder="输入后回车添加" data-testid="policy-keywords" />
        <ContentScanStatus />
      </Card>
      <OnlineOnly>
        <Button type="primary" loading={saving} onClick={() => void save()} style={{ alignSelf: 'flex-start' }} data-testid="file-security-save">
          保存
        </Button>
      </OnlineOnly>
      <OrgPicker
        open={pickDepts}
        departments
        title="选择部门"
        onCancel={() => setPickDepts(false)}
        onOk={(s) => {
          setPickDepts(false);
          const next = { ...names };
          for (const d of s.departments) next[d.id] = d.name;
          setNames(next);
          setPolicy({ ...policy, link: { ...link, departmentIds: [...new Set([...link.departmentIds, ...s.departments.map((d) => d.id)])] } });
        }}
      />
    </Flex>
  );
}

/**
 * The keywords match file names and the text inside files (search inside files): after a change the
 * texts are checked again in the background; its progress, asked again while it runs.
 */
function ContentScanStatus() {
  const scan = useContentScan().data ?? null;
  const note = <div style={{ color: 'rgba(0,0,0,0.55)', marginTop: 8 }}>敏感词同时检查文件名和文件内容（PDF、Office 文档和文本文件提取的文字）。</div>;
  if (!scan) return note;
  const percent = scan.total === 0 ? 100 : Math.floor((scan.done / scan.total) * 100);
  return (
    <div data-testid="content-scan">
      {note}
      {scan.state === 'running' ? (
        <Flex align="center" gap={12} style={{ marginTop: 4 }}>
          <span>正在按新的敏感词重新检查文件内容：{scan.done} / {scan.total}</span>
          <Progress percent={percent} size="small" style={{ width: 200, margin: 0 }} />
        </Flex>
      ) : (
        <div style={{ marginTop: 4 }} data-testid="content-scan-done">
          文件内容检查完成（{formatDateTime(scan.finishedAt ?? scan.startedAt)}，共 {scan.total} 份内容）：{scan.hits > 0 ? <Tag color="red">{scan.hits} 份内容含敏感词</Tag> : '未发现敏感词'}
        </div>
      )}
    </div>
  );
}
