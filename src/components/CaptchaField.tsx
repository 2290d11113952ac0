import { SafetyOutlined } from '@ant-design/icons';
import { Form, Input } from 'antd';
import type { CaptchaImage } from '../../common/api/types';

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
        {/* A title rather than antd's Tooltip: the login page does without the popup machinery. */}
        <button
            type="button"
            onClick={refresh}
            aria-label="刷新验证码"
            title="看不清？点击换一张"
            style={{ padding: 0, border: '1px solid #d9d9d9', borderRadius: 6, background: '#fff', cursor: 'pointer', width: 120, height, flex: 'none' }}
          >
            {captcha ? <img data-testid={`${testId}-image`} src={captcha.image} alt="验证码" style={{ width: '100%', height: '100%', objectFit: 'contain' }} /> : <span data-testid={`${testId}-image`}>加载中…</span>}
          </button>
      </div>
    </Form.Item>
  );
}
