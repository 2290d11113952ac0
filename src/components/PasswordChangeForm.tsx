import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { PASSWORD_MAX_LENGTH } from '../../common/constants';
import { ERRORS } from '../../common/api/errors';
import { changePassword } from '../lib/account-api';
import { ApiCallError } from '../lib/api-client';
import { NewPasswordFields } from './NewPasswordFields';

/** The server's refusals that belong to one field: shown under it, not as a toast. */
const FIELD_OF_CODE: Record<string, 'oldPassword' | 'newPassword'> = {
  [ERRORS.OLD_PASSWORD_WRONG.code]: 'oldPassword',
  [ERRORS.PASSWORD_INVALID.code]: 'newPassword',
  [ERRORS.PASSWORD_SAME_AS_OLD.code]: 'newPassword',
};

interface Fields {
  website: string;
  oldPassword: string;
  newPassword: string;
  repeatPassword: string;
}

/**
 * The password change form of spec §2/§5: account (read-only), old, new and repeated password, each
 * with a show/hide toggle, capped at 16 characters, validated on blur with the exact §5 messages from
 * common/validation (the old password is not validated here: only the server can judge it).
 * `onDone` runs after the server accepted the new password; `onBack` is the Back button.
 */
export function PasswordChangeForm({ account, onDone, onBack, backText = '返回' }: { account: string; onDone: () => void; onBack: () => void; backText?: string }) {
  const [form] = Form.useForm<Fields>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: Fields) {
    setSubmitting(true);
    try {
      await changePassword(values.oldPassword ?? '', values.newPassword, Object.keys(FIELD_OF_CODE));
      onDone();
    } catch (e) {
      // A field's refusal goes under that field; anything else the API client has shown. The input stays.
      const failure = e instanceof ApiCallError && e.failure.kind === 'badRequest' ? e.failure : null;
      const field = failure ? FIELD_OF_CODE[failure.errorCode] : undefined;
      if (failure && field) form.setFields([{ name: field, errors: [failure.errorMessage] }]);
      setSubmitting(false);
    }
  }

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} autoComplete="off" name="password-change" validateTrigger="onBlur" initialValues={{ website: account }}>
      <Form.Item label="账号" name="website">
        <Input data-testid="psw-account" disabled />
      </Form.Item>
      <Form.Item label="原密码" name="oldPassword">
        <Input.Password data-testid="psw-old" placeholder="请输入原密码" maxLength={PASSWORD_MAX_LENGTH} autoComplete="current-password" />
      </Form.Item>
      <NewPasswordFields />
      <Form.Item style={{ marginBottom: 0 }}>
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={onBack} data-testid="psw-back">
            {backText}
          </Button>
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="psw-finish">
            完成
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
