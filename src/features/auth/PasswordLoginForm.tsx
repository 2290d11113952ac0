import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import type { LoginResult } from '../../../common/api/types';
import { PASSWORD_MAX_LENGTH } from '../../../common/constants';
import { CaptchaField } from '../../components/CaptchaField';
import { useCaptcha } from '../../lib/use-captcha';
import { login } from './auth-api';

interface Fields {
  username: string;
  password: string;
  captchaCode: string;
}

/** Account, password (AES-encrypted on the wire) and the single-use image captcha. */
export function PasswordLoginForm({ mayLogin, onLoggedIn }: { mayLogin: () => boolean; onLoggedIn: (result: LoginResult) => Promise<void> }) {
  const [form] = Form.useForm<Fields>();
  const { captcha, refresh } = useCaptcha();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: Fields) {
    if (!captcha || !mayLogin()) return;
    setSubmitting(true);
    try {
      await onLoggedIn(await login({ ...values, captchaId: captcha.captchaId }));
    } catch {
      // The API client already showed the reason; the captcha is single-use, so take a new one.
      form.setFieldValue('captchaCode', '');
      refresh();
      setSubmitting(false);
    }
  }

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} autoComplete="off" name="login">
      <Form.Item label="账号" name="username" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
        <Input id="login-username" data-testid="login-username" prefix={<UserOutlined />} placeholder="请输入账号" autoComplete="username" size="large" />
      </Form.Item>
      <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password id="login-password" data-testid="login-password" prefix={<LockOutlined />} placeholder="请输入密码" maxLength={PASSWORD_MAX_LENGTH} autoComplete="current-password" size="large" />
      </Form.Item>
      <CaptchaField name="captchaCode" captcha={captcha} refresh={refresh} testId="login-captcha" size="large" />
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block size="large" loading={submitting} disabled={!captcha} data-testid="login-submit">
          登录
        </Button>
      </Form.Item>
    </Form>
  );
}
