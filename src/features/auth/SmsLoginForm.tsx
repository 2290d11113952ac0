import { MobileOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { PHONE_PATTERN, type LoginResult } from '../../../common/api/types';
import { SmsCodeFields } from '../../components/SmsCodeFields';
import { smsLogin } from './auth-api';

interface Fields {
  phone: string;
  captchaCode: string;
  smsCode: string;
}

/** SMS login: phone, image captcha to send the code, the 6-digit code. */
export function SmsLoginForm({ mayLogin, onLoggedIn }: { mayLogin: () => boolean; onLoggedIn: (result: LoginResult) => Promise<void> }) {
  const [form] = Form.useForm<Fields>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: Fields) {
    if (!mayLogin()) return;
    setSubmitting(true);
    try {
      await onLoggedIn(await smsLogin({ phone: values.phone, code: values.smsCode }));
    } catch {
      // shown by the API client; a wrong code may be retried until the server retires it
      setSubmitting(false);
    }
  }

  // A field's message and the unticked agreement are said at once, as on the password tab.
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} onFinishFailed={() => void mayLogin()} requiredMark={false} autoComplete="off" name="sms-login">
      <Form.Item label="手机号" name="phone" validateTrigger="onBlur" rules={[{ required: true, pattern: PHONE_PATTERN, message: '请输入正确的手机号码' }]}>
        <Input data-testid="sms-phone" prefix={<MobileOutlined />} placeholder="请输入手机号" maxLength={11} inputMode="tel" autoComplete="tel" size="large" />
      </Form.Item>
      <SmsCodeFields form={form} phoneField="phone" purpose="login" testIdPrefix="sms" size="large" />
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" block size="large" loading={submitting} data-testid="sms-submit">
          登录
        </Button>
      </Form.Item>
    </Form>
  );
}
