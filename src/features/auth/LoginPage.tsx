import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Tooltip } from 'antd';
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { PASSWORD_MAX_LENGTH } from '../../../common/constants';
import { BrandMark } from '../../components/BrandMark';
import { clearMenuRoutes } from '../../lib/menu-routes';
import { login } from './auth-api';
import { loginTarget } from './login-target';
import { useCaptcha } from './use-captcha';

interface LoginFields {
  username: string;
  password: string;
  captchaCode: string;
}

export function LoginPage() {
  const [form] = Form.useForm<LoginFields>();
  const [, navigate] = useLocation();
  const search = useSearch();
  const { captcha, refresh } = useCaptcha();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: LoginFields) {
    if (!captcha) return;
    setSubmitting(true);
    try {
      const result = await login({ ...values, captchaId: captcha.captchaId });
      // Another account may have used this browser: its saved menu must not guard this one's pages.
      clearMenuRoutes();
      navigate(loginTarget(result, search), { replace: true });
    } catch {
      // The API client already showed the reason; the captcha is single-use, so take a new one.
      form.setFieldValue('captchaCode', '');
      refresh();
      setSubmitting(false);
    }
  }

  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: 'linear-gradient(135deg, #e6f4ff 0%, #f5f5f5 100%)' }}>
      <Card style={{ width: 380, boxShadow: '0 6px 24px rgba(0,0,0,0.08)' }}>
        <div style={{ textAlign: 'center', marginBottom: 24 }}>
          <BrandMark size={40} />
        </div>
        <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} autoComplete="off" name="login">
          <Form.Item label="账号" name="username" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
            <Input id="login-username" data-testid="login-username" prefix={<UserOutlined />} placeholder="请输入账号" autoComplete="username" size="large" />
          </Form.Item>
          <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password
              id="login-password"
              data-testid="login-password"
              prefix={<LockOutlined />}
              placeholder="请输入密码"
              maxLength={PASSWORD_MAX_LENGTH}
              autoComplete="current-password"
              size="large"
            />
          </Form.Item>
          <Form.Item label="验证码" required>
            <div style={{ display: 'flex', gap: 8 }}>
              <Form.Item name="captchaCode" noStyle rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
                <Input id="login-captcha" data-testid="login-captcha" prefix={<SafetyOutlined />} placeholder="请输入验证码" size="large" aria-label="验证码" />
              </Form.Item>
              <Tooltip title="看不清？点击换一张">
                <button
                  type="button"
                  onClick={refresh}
                  aria-label="刷新验证码"
                  style={{ padding: 0, border: '1px solid #d9d9d9', borderRadius: 6, background: '#fff', cursor: 'pointer', width: 120, height: 40, flex: 'none' }}
                >
                  {captcha ? <img data-testid="login-captcha-image" src={captcha.image} alt="验证码" style={{ width: '100%', height: '100%', objectFit: 'contain' }} /> : <span data-testid="login-captcha-image">加载中…</span>}
                </button>
              </Tooltip>
            </div>
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block size="large" loading={submitting} disabled={!captcha} data-testid="login-submit">
              登录
            </Button>
          </Form.Item>
        </Form>
      </Card>
    </div>
  );
}
