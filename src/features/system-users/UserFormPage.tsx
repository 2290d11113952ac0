import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Result, Select, Space, Spin, Switch, Tooltip } from 'antd';
import { useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { AccountProfile } from '../../../common/api/endpoints/user-admin';
import type { UserRow } from '../../../common/api/types';
import { encryptPassword } from '../../../common/crypto/password-cipher';
import { accountProblem, nicknameProblem, phoneProblem } from '../../../common/org/account';
import { quotaLabel } from '../../../common/org/quota';
import { departmentPath } from '../../../common/org/tree';
import { validateNewPassword } from '../../../common/validation/password';
import { OnlineOnly } from '../../components/OnlineOnly';
import { ORG_KEYS, useOrgTree } from '../../lib/data/org';
import { useQuotaChoices } from '../../lib/data/static-data';
import { useUserRoles } from '../../lib/data/roles';
import { useFeedback } from '../../lib/feedback/feedback';
import { USERS_KEY } from './use-user-pages';
import { addUser, editUser, getUser } from './users-api';

/** The profile, and the password in clear (encrypted when sent). */
type Values = AccountProfile & { password?: string };

/** antd Form rule from one of our checks (common/org/account.ts): the same text the server answers. */
const rule = (check: (v: string) => string | null) => ({
  validator: async (_: unknown, value: string | undefined) => {
    const problem = check(value ?? '');
    if (problem) throw new Error(problem);
  },
});

/**
 * 新增用户 (/main/system/user/add) and 编辑用户 (/main/system/user/edit?id=): account, nickname,
 * phone, department, role, quota (the static list `quota`), outer login, and an initial password the
 * person must change at first login (on edit: optional, a reset). Checked on blur with the server's rules.
 */
export function UserFormPage() {
  const params = new URLSearchParams(useSearch());
  const id = params.get('id');
  const [location, navigate] = useLocation();
  const editing = location.endsWith('/edit');
  const { message, modal } = useFeedback();
  const client = useQueryClient();
  const tree = useOrgTree();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const existing = useQuery({ queryKey: [...USERS_KEY, 'one', id], enabled: id !== null, queryFn: ({ signal }) => getUser(id!, signal) });
  const user: UserRow | undefined = existing.data;
  // The roles that can be given, and the edited person's own, as getRoles answers (spec §6).
  const roles = useUserRoles(editing ? id : null);
  const roleOptions = useMemo(() => (roles.data?.available ?? []).map((r) => ({ value: r.code, label: r.name })), [roles.data]);

  const departmentOptions = useMemo(() => {
    const index = tree.index;
    if (!index) return [];
    return [...index.byId.values()].map((d) => ({ value: d.id, label: departmentPath(index, d.id) })).sort((a, b) => a.label.localeCompare(b.label, 'zh'));
  }, [tree.index]);
  // The tenant's `quota` list; an account's quota from before it (or an entry since turned off) stays offered as 当前.
  const quotas = useQuotaChoices();
  const quotaOptions = useMemo(() => {
    const options = quotas.choices.map((q) => ({ value: q.bytes, label: q.label }));
    if (user && !options.some((o) => o.value === user.quota)) options.unshift({ value: user.quota, label: `${quotaLabel(user.quota, quotas.choices)}（当前）` });
    return options;
  }, [user, quotas.choices]);

  const back = <Button onClick={() => navigate('/main/system/user/list')}>返回用户列表</Button>;
  if (editing && id === null) return <Result data-testid="user-edit" status="info" title="请从用户列表选择要编辑的用户" extra={back} />;
  if ((id !== null && existing.isPending) || quotas.isPending || roles.isPending) return <Spin style={{ margin: 48 }} />;
  if (id !== null && !user) return <Result data-testid="user-edit" status="404" title="用户不存在" extra={back} />;
  const unassigned = tree.data?.departments.find((d) => d.unassigned)?.id;
  const initial: Partial<Values> = user
    ? { website: user.website, nickName: user.nickName, phone: user.phone, departmentId: user.departmentId, role: roles.data?.roles[0] ?? user.role, quota: user.quota, outerLogin: user.outerLogin }
    : { role: 'member', quota: quotas.defaultChoice?.bytes, outerLogin: false, phone: '', departmentId: params.get('departmentId') ?? unassigned };

  async function save(values: Values) {
    setSaving(true);
    try {
      const profile = { ...values, phone: values.phone ?? '', password: values.password ? encryptPassword(values.password) : undefined };
      if (user) await editUser({ ...profile, id: user.id });
      else await addUser({ ...profile, password: profile.password! });
      message.success(user ? '已保存' : `已新增用户 ${values.website}，首次登录须修改初始密码`);
      void client.invalidateQueries({ queryKey: USERS_KEY });
      void client.invalidateQueries({ queryKey: ORG_KEYS.all });
      navigate('/main/system/user/list');
    } catch {
      // the API client has shown the server's reason (account taken, phone in use...)
    } finally {
      setSaving(false);
    }
  }

  /** Making someone 管理员 (or taking it away) is confirmed with the person's name, as in the list. */
  function confirmThenSave(values: Values) {
    const before = user?.role ?? 'member';
    if (values.role === before) return void save(values);
    const to = roleOptions.find((r) => r.value === values.role)?.label ?? values.role;
    modal.confirm({
      title: `将 ${values.nickName}（${values.website}）${values.role === 'admin' ? '设为管理员' : `改为${to}`}？`,
      content: values.role === 'admin' ? '管理员可以管理全部用户、部门、公告、文件安全和系统配置，并查看操作日志。' : '将不再能使用系统管理。',
      okText: '确认保存',
      cancelText: '取消',
      onOk: () => save(values),
    });
  }

  return (
    <Card
      title={
        <Space>
          <Tooltip title="返回用户列表">
            <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate('/main/system/user/list')} aria-label="返回用户列表" />
          </Tooltip>
          {user ? `编辑用户 ${user.website}` : '新增用户'}
        </Space>
      }
      data-testid={user ? 'user-edit' : 'user-add-page'}
    >
      {tree.index || !unassigned ? null : <Spin />}
      <Form<Values> form={form} layout="horizontal" labelCol={{ span: 4 }} wrapperCol={{ span: 12 }} initialValues={initial} onFinish={confirmThenSave} validateTrigger="onBlur" key={user?.id ?? `new-${unassigned ?? ''}`}>
        <Form.Item name="website" label="账号" rules={[rule(accountProblem)]} extra="字母、数字、下划线、点或中划线，同一企业内不区分大小写">
          <Input maxLength={32} autoComplete="off" data-testid="user-form-website" />
        </Form.Item>
        <Form.Item name="nickName" label="昵称" rules={[rule(nicknameProblem)]}>
          <Input maxLength={32} data-testid="user-form-nickname" />
        </Form.Item>
        <Form.Item name="phone" label="手机号" rules={[rule(phoneProblem)]}>
          <Input maxLength={11} inputMode="numeric" data-testid="user-form-phone" />
        </Form.Item>
        <Form.Item name="departmentId" label="部门" rules={[{ required: true, message: '请选择部门' }]}>
          <Select showSearch optionFilterProp="label" options={departmentOptions} data-testid="user-form-department" />
        </Form.Item>
        <Form.Item name="role" label="角色" extra={roles.isError ? '角色选项加载失败，请稍后重试' : undefined}>
          <Select options={roleOptions} disabled={roleOptions.length === 0} data-testid="user-form-role" />
        </Form.Item>
        <Form.Item
          name="quota"
          label="空间配额"
          rules={[{ required: true, message: '请选择空间配额' }]}
          extra={quotas.isError ? '配额选项加载失败，请稍后重试' : quotas.choices.length === 0 ? '没有可选的配额，请先在 系统配置 → 空间配额 中启用' : undefined}
        >
          <Select options={quotaOptions} data-testid="user-form-quota" />
        </Form.Item>
        <Form.Item name="outerLogin" label="外网登录" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item
          name="password"
          label={user ? '重置初始密码' : '初始密码'}
          extra={user ? '留空则不修改；填写后该用户的登录会话结束，下次登录须修改密码' : '用户首次登录时须修改此密码'}
          rules={[rule((v) => (user && !v ? null : validateNewPassword(v)))]}
        >
          <Input.Password maxLength={16} autoComplete="new-password" data-testid="user-form-password" />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Space>
            <OnlineOnly>
              <Button type="primary" htmlType="submit" loading={saving} data-testid="user-form-submit">
                保存
              </Button>
            </OnlineOnly>
            <Button onClick={() => navigate('/main/system/user/list')}>取消</Button>
          </Space>
        </Form.Item>
      </Form>
    </Card>
  );
}
