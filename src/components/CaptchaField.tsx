import { SafetyOutlined } from '@ant-design/icons';
import { Form, Input } from 'antd';
import type { CaptchaImage } from '../../common/api/types';
import { CaptchaImageButton } from './CaptchaImageButton';

export const CAPTCHA_REQUIRED_MESSAGE = '请输入验证码';

/**
 * The image captcha row: answer input (form field `name`) and the image, which fetches a new one when
 * clicked. `checkedOnSubmit: false` when the form's submit does not use it (SMS: only sending does).
 */
export function CaptchaField({ name, captcha, refresh, testId, size, checkedOnSubmit = true }: { name: string; captcha: CaptchaImage | null; refresh: () => void; testId: string; size?: 'large'; checkedOnSubmit?: boolean }) {
  const height = size === 'large' ? 40 : 32;
  return (
    <Form.Item label="验证码" required>
      <div style={{ display: 'flex', gap: 8 }}>
        <Form.Item name={name} noStyle rules={checkedOnSubmit ? [{ required: true, whitespace: true, message: CAPTCHA_REQUIRED_MESSAGE }] : []} validateTrigger="onBlur">
          <Input id={testId} data-testid={testId} prefix={<SafetyOutlined />} placeholder="请输入验证码" size={size} aria-label="验证码" autoComplete="off" />
        </Form.Item>
        <CaptchaImageButton captcha={captcha} refresh={refresh} testId={testId} height={height} />
      </div>
    </Form.Item>
  );
}
