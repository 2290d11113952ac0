import { MessageOutlined } from '@ant-design/icons';
import { Button, Form, Input, type FormInstance } from 'antd';
import { useState } from 'react';
import type { SmsPurpose } from '../../common/api/endpoints/auth';
import { SMS_CODE_PATTERN } from '../../common/api/types';
import { sendSmsCode } from '../lib/account-api';
import { useCaptcha } from '../lib/use-captcha';
import { useCountdown } from '../lib/use-countdown';
import { CAPTCHA_REQUIRED_MESSAGE, CaptchaField } from './CaptchaField';
import { useFeedback } from '../lib/feedback/feedback';

export const SMS_CODE_MESSAGE = '请输入6位数字短信验证码';

/**
 * Image captcha + 6-digit SMS code with a '获取验证码' button that counts down before a resend.
 * The server wants the image captcha with every send (it cannot be used to bomb phones) and uses it
 * up, so a new one is fetched after each attempt. Fields: `captchaCode`, `smsCode`; the phone is the
 * form's `phoneField`.
 */
export function SmsCodeFields({ form, phoneField, purpose, testIdPrefix, size }: { form: FormInstance; phoneField: string; purpose: SmsPurpose; testIdPrefix: string; size?: 'large' }) {
  const { message } = useFeedback();
  const { captcha, refresh } = useCaptcha();
  const [left, startCountdown] = useCountdown();
  const [sending, setSending] = useState(false);

  async function send() {
    if (!captcha) return;
    let phone: string;
    try {
      phone = ((await form.validateFields([phoneField])) as Record<string, string>)[phoneField]!.trim();
    } catch {
      return; // the field shows what is wrong
    }
    // Checked here, not on submit: only sending uses the captcha, and a send clears it.
    const captchaCode = ((form.getFieldValue('captchaCode') as string | undefined) ?? '').trim();
    if (!captchaCode) {
      form.setFields([{ name: 'captchaCode', errors: [CAPTCHA_REQUIRED_MESSAGE] }]);
      return;
    }
    form.setFields([{ name: 'captchaCode', errors: [] }]);
    setSending(true);
    try {
      const result = await sendSmsCode({ phone, purpose, captchaId: captcha.captchaId, captchaCode });
      startCountdown(result.resendAfter);
      message.success(`验证码已发送，${Math.round(result.expiresIn / 60)}分钟内有效`);
    } catch {
      // shown by the API client
    } finally {
      setSending(false);
      form.setFieldValue('captchaCode', '');
      refresh();
    }
  }

  return (
    <>
      <CaptchaField name="captchaCode" captcha={captcha} refresh={refresh} testId={`${testIdPrefix}-captcha`} size={size} checkedOnSubmit={false} />
      <Form.Item label="短信验证码" required>
        <div style={{ display: 'flex', gap: 8 }}>
          <Form.Item name="smsCode" noStyle validateTrigger="onBlur" rules={[{ required: true, pattern: SMS_CODE_PATTERN, message: SMS_CODE_MESSAGE }]}>
            <Input data-testid={`${testIdPrefix}-code`} prefix={<MessageOutlined />} placeholder="6位数字验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" size={size} />
          </Form.Item>
          <Button onClick={send} loading={sending} disabled={left > 0 || !captcha} size={size} style={{ width: 120, flex: 'none' }} data-testid={`${testIdPrefix}-send`}>
            {left > 0 ? `${left}秒后重发` : '获取验证码'}
          </Button>
        </div>
      </Form.Item>
    </>
  );
}
