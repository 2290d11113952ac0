import { Button, Flex, Input, Modal, Popconfirm, Segmented, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import {
  APPLICATION_COMMENT_MAX,
  APPLICATION_STATE_LABELS,
  SHARE_KIND_LABELS,
  type ApplicationDecisionResponse,
  type ApplicationState,
  type ShareApplication,
  type ShareKind,
} from '../../../common/api/sharing';
import { formatDateTime } from '../../../common/format/date';
import { useLocation, useSearch } from 'wouter';
import { approveApplications, rejectApplications, useApplication, useApplications, useSharingChanged, withdrawApplication } from '../../lib/data/sharing';
import { Permission } from '../../lib/button-permissions';
import { useFeedback } from '../../lib/feedback/feedback';
import { ApplicationDrawer } from './ApplicationDrawer';
import { applicationColor, MoreRows } from './sharing-ui';

const STATE_OPTIONS = (Object.keys(APPLICATION_STATE_LABELS) as ApplicationState[]).map((s) => ({ value: s, label: APPLICATION_STATE_LABELS[s] }));
const KIND_OPTIONS = (['share', 'link'] as const).map((k) => ({ value: k, label: SHARE_KIND_LABELS[k] }));

interface Filter {
  states: ApplicationState[];
  kind?: ShareKind;
  keyword: string;
}

function Filters({ value, onChange, states = true }: { value: Filter; onChange: (f: Filter) => void; states?: boolean }) {
  return (
    <Space wrap>
      {states && <Select mode="multiple" allowClear placeholder="全部状态" style={{ minWidth: 200 }} value={value.states} onChange={(s) => onChange({ ...value, states: s })} options={STATE_OPTIONS} />}
      <Select allowClear placeholder="全部类型" style={{ width: 130 }} value={value.kind} onChange={(kind) => onChange({ ...value, kind })} options={KIND_OPTIONS} />
      <Input.Search allowClear placeholder="文件名或申请理由" style={{ width: 240 }} onSearch={(keyword) => onChange({ ...value, keyword: keyword.trim() })} />
    </Space>
  );
}

/**
 * The application whose 申请详情 is open: `?id=` in the address (a message opens it so, and a reload
 * keeps it), read through the data layer (the list's row meanwhile), so it follows a decision.
 */
function useDetail(items: readonly ShareApplication[]) {
  const [location, navigate] = useLocation();
  const id = new URLSearchParams(useSearch()).get('id');
  const query = useApplication(id, items.find((a) => a.id === id));
  return {
    app: id ? (query.data ?? null) : null,
    open: (appId: string) => navigate(`${location}?id=${encodeURIComponent(appId)}`),
    close: () => navigate(location, { replace: true }),
  };
}

const filesCell = (a: ShareApplication) => a.files.map((f) => f.name || '（已删除）').join('、');

/** 我的申请 (/main/safe/myApply): the caller's applications with state and history; a pending one may be withdrawn. */
export function MyApplyPage() {
  const { message } = useFeedback();
  const [filter, setFilter] = useState<Filter>({ states: [], keyword: '' });
  const list = useApplications('mine', filter);
  const changed = useSharingChanged();
  const detail = useDetail(list.items);
  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="my-apply-page">
      <Filters value={filter} onChange={setFilter} />
      <Table<ShareApplication>
        rowKey="id"
        data-testid="my-apply-table"
        loading={list.loading}
        dataSource={list.items}
        pagination={false}
        locale={{ emptyText: '暂无申请。需要审批的分享会在这里出现。' }}
        columns={[
          { title: '文件', key: 'files', render: (_: unknown, a) => filesCell(a) },
          { title: '类型', key: 'kind', width: 100, render: (_: unknown, a) => SHARE_KIND_LABELS[a.kind] },
          { title: '审批人', key: 'approver', width: 120, render: (_: unknown, a) => a.approver?.nickName ?? '-' },
          {
            title: '状态',
            key: 'state',
            width: 110,
            render: (_: unknown, a) => (
              <Tag color={applicationColor(a.state)} data-testid={`apply-state-${a.id}`}>
                {APPLICATION_STATE_LABELS[a.state]}
                {a.state === 'pending' && a.levels > 1 ? ` ${a.level}/${a.levels}` : ''}
              </Tag>
            ),
          },
          { title: '说明', key: 'comment', render: (_: unknown, a) => (a.state === 'rejected' ? <span style={{ color: '#cf1322' }}>驳回理由：{a.comment}</span> : a.comment) },
          { title: '提交时间', key: 'createdAt', width: 160, render: (_: unknown, a) => formatDateTime(a.createdAt) },
          {
            title: '操作',
            key: 'actions',
            width: 140,
            render: (_: unknown, a) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => detail.open(a.id)} data-testid={`apply-detail-${a.id}`}>
                  详情
                </Button>
                {a.state === 'pending' && (
                  <Popconfirm
                    title="撤回这个申请？"
                    okText="撤回"
                    cancelText="返回"
                    onConfirm={async () => {
                      await withdrawApplication(a.id);
                      message.success('已撤回');
                      changed();
                    }}
                  >
                    <Button type="link" size="small" danger data-testid={`apply-withdraw-${a.id}`}>
                      撤回
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      <MoreRows list={list} />
      <ApplicationDrawer app={detail.app} onClose={detail.close} />
    </Flex>
  );
}

/** 审批 (/main/safe/dealApply): the approver's queue (approve, batch approve, reject with a reason) and what they decided. */
export function DealApplyPage() {
  const { message, modal } = useFeedback();
  const [box, setBox] = useState<'pending' | 'done'>('pending');
  const [filter, setFilter] = useState<Filter>({ states: [], keyword: '' });
  const list = useApplications(box, box === 'pending' ? { ...filter, states: [] } : filter);
  const changed = useSharingChanged();
  const [selected, setSelected] = useState<string[]>([]);
  const detail = useDetail(list.items);
  const [deciding, setDeciding] = useState<{ ids: string[]; approve: boolean } | null>(null);
  const [comment, setComment] = useState('');

  function report(r: ApplicationDecisionResponse, verb: string): void {
    const failed = r.results.filter((x) => !x.ok);
    const ok = r.results.length - failed.length;
    if (failed.length === 0) message.success(`已${verb} ${ok} 个申请`);
    else modal.warning({ title: `${ok} 个已${verb}，${failed.length} 个未能处理`, content: failed.map((f) => f.errorMessage).join('\n') });
    setSelected([]);
    changed();
  }

  async function decide(): Promise<void> {
    if (!deciding) return;
    if (!deciding.approve && !comment.trim()) {
      message.warning('请填写驳回理由');
      throw new Error('comment required');
    }
    const r = deciding.approve ? await approveApplications({ ids: deciding.ids, comment: comment.trim() }) : await rejectApplications(deciding.ids, comment.trim());
    report(r, deciding.approve ? '通过' : '驳回');
    setDeciding(null);
  }

  const open = (ids: string[], approve: boolean) => {
    setComment('');
    setDeciding({ ids, approve });
  };

  return (
    <Flex vertical gap={12} style={{ flex: 1, minHeight: 0 }} data-testid="deal-apply-page">
      <Space wrap>
        <Segmented
          value={box}
          onChange={(v) => {
            setBox(v as 'pending' | 'done');
            setSelected([]);
          }}
          options={[
            { value: 'pending', label: <span data-testid="deal-tab-pending">待我审批</span> },
            { value: 'done', label: <span data-testid="deal-tab-done">我已处理</span> },
          ]}
        />
        <Filters value={filter} onChange={setFilter} states={box === 'done'} />
        {box === 'pending' && (
          <Permission code="share:approve">
            <Button type="primary" disabled={selected.length === 0} onClick={() => open(selected, true)} data-testid="deal-batch-approve">
              批量通过（{selected.length}）
            </Button>
          </Permission>
        )}
      </Space>
      <Table<ShareApplication>
        rowKey="id"
        data-testid="deal-apply-table"
        loading={list.loading}
        dataSource={list.items}
        pagination={false}
        rowSelection={box === 'pending' ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) } : undefined}
        locale={{ emptyText: box === 'pending' ? '没有待审批的申请' : '暂无处理记录' }}
        columns={[
          { title: '申请人', key: 'applicant', width: 140, render: (_: unknown, a) => `${a.applicant.nickName}（${a.applicant.account}）` },
          { title: '文件', key: 'files', render: (_: unknown, a) => filesCell(a) },
          { title: '类型', key: 'kind', width: 100, render: (_: unknown, a) => SHARE_KIND_LABELS[a.kind] },
          { title: '理由', key: 'reason', render: (_: unknown, a) => a.reason },
          { title: '状态', key: 'state', width: 100, render: (_: unknown, a) => <Tag color={applicationColor(a.state)}>{APPLICATION_STATE_LABELS[a.state]}{a.levels > 1 ? ` ${a.level}/${a.levels}` : ''}</Tag> },
          { title: '提交时间', key: 'createdAt', width: 160, render: (_: unknown, a) => formatDateTime(a.createdAt) },
          {
            title: '操作',
            key: 'actions',
            width: 190,
            render: (_: unknown, a) => (
              <Space size={4}>
                <Button type="link" size="small" onClick={() => detail.open(a.id)} data-testid={`deal-detail-${a.id}`}>
                  详情
                </Button>
                {box === 'pending' && (
                  <Permission code="share:approve">
                    <Button type="link" size="small" onClick={() => open([a.id], true)} data-testid={`deal-approve-${a.id}`}>
                      通过
                    </Button>
                    <Button type="link" size="small" danger onClick={() => open([a.id], false)} data-testid={`deal-reject-${a.id}`}>
                      驳回
                    </Button>
                  </Permission>
                )}
              </Space>
            ),
          },
        ]}
      />
      <MoreRows list={list} />
      <Modal
        open={deciding !== null}
        title={deciding ? `${deciding.approve ? '通过' : '驳回'} ${deciding.ids.length} 个申请` : ''}
        okText={deciding?.approve ? '通过' : '驳回'}
        okButtonProps={{ danger: deciding ? !deciding.approve : false, ...({ 'data-testid': 'deal-confirm' } as Record<string, string>) }}
        cancelText="取消"
        onCancel={() => setDeciding(null)}
        onOk={decide}
        destroyOnHidden
      >
        <Input.TextArea
          rows={4}
          maxLength={APPLICATION_COMMENT_MAX}
          showCount
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          placeholder={deciding?.approve ? '审批意见（可选）' : '驳回理由（必填，申请人会看到）'}
          data-testid="deal-comment"
        />
      </Modal>
      <ApplicationDrawer app={detail.app} onClose={detail.close} />
    </Flex>
  );
}
