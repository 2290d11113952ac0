import { Button, DatePicker, Form, Input, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { DepartmentSelect } from '../../components/DepartmentSelect';
import type { ActionLogFilter } from '../../../common/api/action-log';
import type { ActionOutcome } from '../../../common/api/action-codes';
import { searchOperators } from './action-log-api';
import { ACTION_OPTIONS, OUTCOME_OPTIONS } from './labels';

interface FormValues {
  range?: [Dayjs | null, Dayjs | null] | null;
  userId?: string;
  departmentId?: string;
  actions?: string[];
  fileName?: string;
  outcome?: ActionOutcome;
}

/** The form's values as the API's filter (empty fields left out, so equal filters share a cache entry). */
export function toFilter(v: FormValues): ActionLogFilter {
  const f: ActionLogFilter = {};
  if (v.range?.[0]) f.from = v.range[0].valueOf();
  if (v.range?.[1]) f.to = v.range[1].valueOf() + 1;
  if (v.userId) f.userId = v.userId;
  if (v.departmentId) f.departmentId = v.departmentId;
  if (v.actions && v.actions.length > 0) f.actions = v.actions;
  if (v.fileName?.trim()) f.fileName = v.fileName.trim();
  if (v.outcome) f.outcome = v.outcome;
  return f;
}

/** Operators: the tenant's accounts, searched on the server as the admin types. */
function OperatorSelect({ value, onChange }: { value?: string; onChange?: (v: string | undefined) => void }) {
  const [keyword, setKeyword] = useState('');
  const users = useQuery({ queryKey: ['account', 'actionLogOperators', keyword], queryFn: ({ signal }) => searchOperators(keyword, signal) });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      onChange={(v) => onChange?.(v)}
      placeholder="全部操作人"
      loading={users.isFetching}
      style={{ width: 200 }}
      options={(users.data ?? []).map((u) => ({ value: u.id, label: `${u.nickName || u.website}（${u.website}）` }))}
      notFoundContent={users.isFetching ? '搜索中…' : '没有匹配的账号'}
      data-testid="action-log-operator"
    />
  );
}

/** Filters of the 操作日志 page: time range, operator, department, action types, object name, outcome. */
export function ActionLogFilters({ onApply, disabled }: { onApply: (f: ActionLogFilter) => void; disabled: boolean }) {
  const [form] = Form.useForm<FormValues>();
  return (
    <Form form={form} layout="inline" onFinish={(v) => onApply(toFilter(v))} style={{ rowGap: 8 }} data-testid="action-log-filters">
      <Form.Item name="range" label="时间">
        <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
      </Form.Item>
      <Form.Item name="userId" label="操作人">
        <OperatorSelect />
      </Form.Item>
      <Form.Item name="departmentId" label="部门">
        {/* Departments with their sub-departments: the server counts the whole subtree. */}
        <DepartmentSelect placeholder="全部部门" style={{ width: 200 }} data-testid="action-log-department" />
      </Form.Item>
      <Form.Item name="actions" label="操作类型">
        <Select mode="multiple" allowClear maxTagCount="responsive" placeholder="全部操作" options={ACTION_OPTIONS} style={{ width: 240 }} data-testid="action-log-actions" />
      </Form.Item>
      <Form.Item name="fileName" label="对象名称">
        <Input allowClear placeholder="文件名、用户名、群组名…" maxLength={255} style={{ width: 200 }} data-testid="action-log-name" />
      </Form.Item>
      <Form.Item name="outcome" label="结果">
        <Select allowClear placeholder="全部" options={OUTCOME_OPTIONS} style={{ width: 110 }} data-testid="action-log-outcome" />
      </Form.Item>
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" disabled={disabled} data-testid="action-log-search">
            查询
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onApply({});
            }}
          >
            重置
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
