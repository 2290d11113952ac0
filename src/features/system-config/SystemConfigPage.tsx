import { UploadOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, InputNumber, Popconfirm, Select, Space, Switch, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { HOME_PAGES, TENANT_ALIAS_PATTERN, TENANT_BACKGROUND_MAX_BYTES, TENANT_LOGO_MAX_BYTES, TENANT_SWITCH_LABELS, type TenantInfo, type TenantSwitches } from '../../../common/api/tenant';
import { GESTURE_IDLE_MAX, GESTURE_IDLE_MIN } from '../../../common/gesture/pattern';
import { QUERY_KEYS } from '../../lib/data/queries';
import { useOnline } from '../../lib/data/online';
import { useFeedback } from '../../lib/feedback/feedback';
import { ClientReleasesCard } from './ClientReleasesCard';
import { DocumentsCard } from './DocumentsCard';
import { dictionaries, readAsDataUrl, resetBackground, resetLogo, setSwitch, tenantInfo, updateDictItem, updateTenant } from './system-config-api';
import { ValidityCard } from './ValidityCard';

const TENANT_KEY = ['account', 'tenantInfo'] as const;
const DICT_KEY = ['account', 'dictionaries'] as const;
const PICTURE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';

const SWITCHES: Array<{ key: Exclude<keyof TenantSwitches, 'syncTime' | 'gestureIdle'>; label: string; help: string }> = [
  { key: 'gesture', label: TENANT_SWITCH_LABELS.gesture, help: '已安装的应用和桌面客户端可在账号安全中设置手势密码，启动时和闲置后需验证' },
  { key: 'keyCreate', label: TENANT_SWITCH_LABELS.keyCreate, help: '新建分享链接时默认生成提取码' },
  { key: 'publicDownLoad', label: TENANT_SWITCH_LABELS.publicDownLoad, help: '允许下载公共空间中的文件；关闭后公共空间的文件只能预览，成员、管理员和分享链接的访客都不能下载、打包、复制出去或保存' },
  { key: 'exchangeSwitch', label: TENANT_SWITCH_LABELS.exchangeSwitch, help: '提供交换区，用于在内网与外网之间交换文件' },
  { key: 'webdav', label: TENANT_SWITCH_LABELS.webdav, help: '允许成员用设备密码通过 WebDAV（资源管理器、访达、rclone 等）访问网盘；关闭后所有 WebDAV 访问立即被拒绝' },
];

/**
 * A picture picked for upload: checked for type and size here too (the server re-checks by content).
 * The browser's own file input stays out of sight (its Choose File / No file chosen is not ours to
 * show); the 上传… button opens it. Inside antd's Space the `hidden` attribute alone lost to the
 * layout's display rule and showed the raw input: an inline display: none wins.
 */
function PicturePicker({ label, url, maxBytes, onPick, onReset, disabled, testId }: { label: string; url: string; maxBytes: number; onPick: (dataUrl: string) => Promise<void>; onReset: () => Promise<void>; disabled: boolean; testId: string }) {
  const input = useRef<HTMLInputElement>(null);
  const { message } = useFeedback();
  return (
    <Space align="center" wrap>
      <div style={{ width: 160, height: 90, border: '1px dashed #d9d9d9', borderRadius: 8, display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fafafa', overflow: 'hidden' }}>
        {url ? <img src={url} alt={label} style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }} /> : <Typography.Text type="secondary">默认</Typography.Text>}
      </div>
      <input
        ref={input}
        type="file"
        accept={PICTURE_TYPES}
        hidden
        style={{ display: 'none' }}
        data-testid={testId}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          if (file.size > maxBytes) {
            message.error(`图片过大，${label}不超过 ${Math.round(maxBytes / 1024 / 1024)}MB`);
            return;
          }
          await onPick(await readAsDataUrl(file));
        }}
      />
      <Button icon={<UploadOutlined />} disabled={disabled} onClick={() => input.current?.click()}>
        上传{label}
      </Button>
      <Popconfirm title={`恢复默认${label}？`} okText="恢复" cancelText="取消" onConfirm={onReset} disabled={disabled}>
        <Button disabled={disabled}>恢复默认</Button>
      </Popconfirm>
    </Space>
  );
}

/**
 * Spec §2 `/main/system/systemConfig` (admins): the tenant's brand, alias, home page, logo and login
 * background, the admin switches of spec §7, the module switches (which modules the menu offers) and
 * 客户端版本 (the desktop releases per client type).
 */
export function SystemConfigPage() {
  const online = useOnline();
  const client = useQueryClient();
  const { message } = useFeedback();
  const info = useQuery({ queryKey: TENANT_KEY, queryFn: ({ signal }) => tenantInfo(signal) });
  const dicts = useQuery({ queryKey: DICT_KEY, queryFn: ({ signal }) => dictionaries(signal) });
  const [busy, setBusy] = useState(false);
  const tenant = info.data;

  /** Runs a change, then refreshes what shows it (this page, the brand everywhere, the menu). */
  async function change(run: () => Promise<unknown>, done: string) {
    setBusy(true);
    try {
      const result = await run();
      if (result && typeof result === 'object' && 'tenantId' in result) client.setQueryData(TENANT_KEY, result as TenantInfo);
      message.success(done);
      void client.invalidateQueries({ queryKey: TENANT_KEY });
      void client.invalidateQueries({ queryKey: DICT_KEY });
      void client.invalidateQueries({ queryKey: QUERY_KEYS.systemConfig });
      void client.invalidateQueries({ queryKey: QUERY_KEYS.menu });
      // The static data lists and the module switch other pages read (src/lib/data/static-data.ts).
      void client.invalidateQueries({ queryKey: ['account', 'staticData'] });
      void client.invalidateQueries({ queryKey: ['account', 'dict'] });
    } catch {
      // the API client has shown the reason
    } finally {
      setBusy(false);
    }
  }

  const modules = dicts.data?.find((g) => g.code === 'module-switch');
  const phone = dicts.data?.find((g) => g.code === 'customerTelephone')?.items[0];
  const quotas = dicts.data?.find((g) => g.code === 'quota');
  const disabled = !online || busy;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="system-config">
      <Card title="品牌与登录页" loading={!tenant}>
        {tenant && (
          <Form
            layout="vertical"
            initialValues={{ brandName: tenant.brandName, alias: tenant.alias, homeUrl: tenant.homeUrl }}
            onFinish={(v: { brandName: string; alias: string; homeUrl: string }) => change(() => updateTenant({ brandName: v.brandName, alias: v.alias, homeUrl: v.homeUrl }), '已保存')}
            style={{ maxWidth: 560 }}
          >
            <Form.Item name="brandName" label="品牌名称" rules={[{ required: true, whitespace: true, message: '请输入品牌名称' }, { max: 64, message: '不超过 64 个字符' }]}>
              <Input maxLength={64} data-testid="config-brand" />
            </Form.Item>
            <Form.Item
              name="alias"
              label="登录地址别名"
              extra={`设置后可通过 /login/别名 打开本租户的登录页`}
              rules={[{ pattern: TENANT_ALIAS_PATTERN, message: '别名只能包含字母、数字、下划线和短横线，长度 2-32 位' }]}
            >
              <Input maxLength={32} allowClear data-testid="config-alias" />
            </Form.Item>
            <Form.Item name="homeUrl" label="首页" extra="登录后和打开网站根地址时进入的页面；该页面所属模块关闭时进入个人文件">
              <Select options={HOME_PAGES.map((p) => ({ value: p.url, label: p.label }))} style={{ maxWidth: 240 }} data-testid="config-home" />
            </Form.Item>
            <Form.Item label="标志">
              <PicturePicker label="标志" url={tenant.logo} maxBytes={TENANT_LOGO_MAX_BYTES} disabled={disabled} testId="config-logo-file" onPick={(logo) => change(() => updateTenant({ logo }), '标志已更新')} onReset={() => change(resetLogo, '已恢复默认标志')} />
            </Form.Item>
            <Form.Item label="登录页背景">
              <PicturePicker label="背景图" url={tenant.loginBackground} maxBytes={TENANT_BACKGROUND_MAX_BYTES} disabled={disabled} testId="config-background-file" onPick={(loginBackground) => change(() => updateTenant({ loginBackground }), '登录页背景已更新')} onReset={() => change(resetBackground, '已恢复默认背景')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" disabled={disabled} data-testid="config-save">
              保存
            </Button>
          </Form>
        )}
      </Card>
      <Card title="系统开关" loading={!tenant}>
        {tenant && (
          <Space orientation="vertical" size={12}>
            {SWITCHES.map((s) => (
              <Space key={s.key}>
                <Switch checked={tenant.switches[s.key]} disabled={disabled} onChange={(on) => change(() => setSwitch(s.key, on), `${s.label}已${on ? '开启' : '关闭'}`)} data-testid={`switch-${s.key}`} />
                <span>{s.label}</span>
                <Typography.Text type="secondary">{s.help}</Typography.Text>
              </Space>
            ))}
            {tenant.switches.gesture && (
              <Space>
                <span>{TENANT_SWITCH_LABELS.gestureIdle}</span>
                <InputNumber min={GESTURE_IDLE_MIN} max={GESTURE_IDLE_MAX} defaultValue={tenant.switches.gestureIdle} disabled={disabled} addonAfter="分钟" data-testid="config-gesture-idle" onBlur={(e) => {
                  const minutes = Number(e.target.value);
                  if (Number.isInteger(minutes) && minutes !== tenant.switches.gestureIdle && minutes >= GESTURE_IDLE_MIN && minutes <= GESTURE_IDLE_MAX) void change(() => setSwitch('gestureIdle', minutes), '手势密码锁定时间已更新');
                }} />
                <Typography.Text type="secondary">应用闲置或切到后台超过该时间后需重新验证手势密码</Typography.Text>
              </Space>
            )}
            <Space>
              <span>桌面端同步间隔</span>
              <InputNumber min={1} max={1440} defaultValue={tenant.switches.syncTime} disabled={disabled} addonAfter="分钟" onBlur={(e) => {
                const minutes = Number(e.target.value);
                if (Number.isInteger(minutes) && minutes !== tenant.switches.syncTime && minutes >= 1 && minutes <= 1440) void change(() => setSwitch('syncTime', minutes), '同步间隔已更新');
              }} />
            </Space>
          </Space>
        )}
      </Card>
      <Card title="功能模块" loading={!modules}>
        <Typography.Paragraph type="secondary">关闭的模块不再出现在本租户所有用户的菜单中。</Typography.Paragraph>
        <Space wrap size={[24, 12]}>
          {modules?.items.map((m) => (
            <Space key={m.code}>
              <Switch checked={m.enabled} disabled={disabled} onChange={(on) => change(() => updateDictItem({ group: 'module-switch', code: m.code, enabled: on }), `${m.label}已${on ? '开启' : '关闭'}`)} data-testid={`module-${m.code}`} />
              <span>{m.label}</span>
            </Space>
          ))}
        </Space>
      </Card>
      <Card title="空间配额" loading={!quotas}>
        <Typography.Paragraph type="secondary">新增、编辑和批量导入用户时只能选择已开启的配额；已有用户的配额不受影响。</Typography.Paragraph>
        <Space wrap size={[24, 12]}>
          {quotas?.items.map((q) => (
            <Space key={q.code}>
              <Switch checked={q.enabled} disabled={disabled} onChange={(on) => change(() => updateDictItem({ group: 'quota', code: q.code, enabled: on }), `配额 ${q.label} 已${on ? '开启' : '关闭'}`)} data-testid={`quota-${q.code}`} />
              <span>{q.label}</span>
            </Space>
          ))}
        </Space>
      </Card>
      <ValidityCard change={change} disabled={disabled} />
      <ClientReleasesCard />
      <DocumentsCard />
      {phone && (
        <Card title="客服电话">
          <Space>
            <Input defaultValue={phone.value} maxLength={32} style={{ width: 220 }} disabled={disabled} onBlur={(e) => e.target.value.trim() !== phone.value && void change(() => updateDictItem({ group: 'customerTelephone', code: phone.code, value: e.target.value }), '客服电话已更新')} />
          </Space>
        </Card>
      )}
    </Space>
  );
}
