import { MobileOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import { PHONE_PATTERN } from '../../../common/api/types';
import { ApiCallError } from '../../lib/api-client';
import { NewPasswordFields } from '../../components/NewPasswordFields';
import { SmsCodeFields } from '../../components/SmsCodeFields';
import { resetPassword } from './auth-api';

interface Fields {
  phone: string;
  captchaCode: string;
  smsCode: string;
  newPassword: string;
  repeatPassword: string;
}

/** Errors of the reset that belong to one field: shown under it, not as a toast. */
const FIELD_OF_CODE: Record<string, keyof Fields> = {
  [ERRORS.SMS_CODE_INVALID.code]: 'smsCode',
  [ERRORS.PASSWORD_INVALID.code]: 'newPassword',
};

/**
 * 忘记密码: the bound phone, the image captcha to send a code (same rules as SMS login), the code and
 * the new password twice. `onDone` runs once the server set it: the user logs in with it.
 */
export function ForgotPasswordForm({ onDone, onBack }: { onDone: () => void; onBack: () => void }) {
  const [form] = Form.useForm<Fields>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: Fields) {
    setSubmitting(true);
    try {
      await resetPassword({ phone: values.phone, code: values.smsCode, newPassword: values.newPassword }, Object.keys(FIELD_OF_CODE));
      onDone();
    } catch (e) {
      const failure = e instanceof ApiCallError && e.failure.kind === 'badRequest' ? e.failure : null;
      const field = failure ? FIELD_OF_CODE[failure.errorCode] : undefined;
      if (failure && field) form.setFields([{ name: field, errors: [failure.errorMessage] }]);
      setSubmitting(false);
    }
  }

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} autoComplete="off" name="forgot-password" validateTrigger="onBlur" data-testid="forgot-form">
      <Form.Item label="绑定的手机号" name="phone" rules={[{ required: true, pattern: PHONE_PATTERN, message: '请输入正确的手机号码' }]}>
        <Input data-testid="forgot-phone" prefix={<MobileOutlined />} placeholder="请输入账号绑定的手机号" maxLength={11} inputMode="tel" autoComplete="tel" />
      </Form.Item>
      <SmsCodeFields form={form} phoneField="phone" purpose="resetPassword" testIdPrefix="forgot" />
      <NewPasswordFields testIdPrefix="forgot" />
      <Form.Item style={{ marginBottom: 0 }}>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={onBack} data-testid="forgot-back">
            返回登录
          </Button>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="forgot-submit">
            重置密码
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
