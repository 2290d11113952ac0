import { Form, Input } from 'antd';
import { PASSWORD_MAX_LENGTH } from '../../common/constants';
import { validateNewPassword, validateRepeatPassword } from '../../common/validation/password';

/**
 * 新密码 and 确认新密码 (fields `newPassword`, `repeatPassword`) with the exact §5 messages of
 * common/validation, shown under each field; used by the password change and 忘记密码.
 */
export function NewPasswordFields({ testIdPrefix = 'psw' }: { testIdPrefix?: string }) {
  return (
    <>
      <Form.Item
        label="新密码"
        name="newPassword"
        rules={[
          {
            validator: (_rule, value: string | undefined) => {
              const problem = validateNewPassword(value ?? '');
              return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
            },
          },
        ]}
      >
        <Input.Password data-testid={`${testIdPrefix}-new`} placeholder="8-16位字母、数字和符号组合" maxLength={PASSWORD_MAX_LENGTH} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label="确认新密码"
        name="repeatPassword"
        dependencies={['newPassword']}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_rule, value: string | undefined) => {
              const problem = validateRepeatPassword(value ?? '', (getFieldValue('newPassword') as string | undefined) ?? '');
              return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
            },
          }),
        ]}
      >
        <Input.Password data-testid={`${testIdPrefix}-repeat`} placeholder="请再次输入新密码" maxLength={PASSWORD_MAX_LENGTH} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
