import { LockOutlined, MobileOutlined } from '@ant-design/icons';
import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ERRORS } from '../../../common/api/errors';
import { PHONE_PATTERN } from '../../../common/api/types';
import { PASSWORD_MAX_LENGTH } from '../../../common/constants';
import { SmsCodeFields } from '../../components/SmsCodeFields';
import { validatePhone } from '../../lib/account-api';
import { ApiCallError } from '../../lib/api-client';
import { useFeedback } from '../../lib/feedback/feedback';
import { maskPhone } from './use-user-details';

interface VerifyFields {
  password: string;
  oldPhone: string;
  captchaCode: string;
  smsCode: string;
}

interface BindFields {
  password?: string;
  phone: string;
  captchaCode: string;
  smsCode: string;
}

/** What step 1 proved: the login password and, when asked, the code sent to the phone bound now. */
interface Proof {
  password: string;
  oldCode?: string;
}

const PASSWORD_RULES = [{ required: true, message: '请输入登录密码' }];

/**
 * 绑定手机号 / 更换手机号 (issue 44). Binding a phone opens SMS login and 忘记密码 to it, so the login
 * password is asked every time; replacing one first proves the phone bound now with a code sent to it
 * (when the server's gateway really delivers: UserDetails.smsDelivery), as the best drives do. Two steps
 * when replacing (验证身份, then the new phone), one when binding the first phone.
 */
export function BindPhoneModal({ open, currentPhone, smsDelivery, onClose, onBound }: { open: boolean; currentPhone: string; smsDelivery: boolean; onClose: () => void; onBound: () => void }) {
  const { message } = useFeedback();
  const changing = currentPhone !== '';
  const needsOldCode = changing && smsDelivery;
  const [verifyForm] = Form.useForm<VerifyFields>();
  const [bindForm] = Form.useForm<BindFields>();
  const [proof, setProof] = useState<Proof | null>(null);
  const [saving, setSaving] = useState(false);
  const step = changing && !proof ? 'verify' : 'bind';

  useEffect(() => {
    if (open) setProof(null);
  }, [open]);

  async function next() {
    let values: VerifyFields;
    try {
      values = await verifyForm.validateFields();
    } catch {
      return;
    }
    setProof({ password: values.password, oldCode: needsOldCode ? values.smsCode.trim() : undefined });
  }

  async function submit() {
    let values: BindFields;
    try {
      values = await bindForm.validateFields();
    } catch {
      return;
    }
    const password = proof?.password ?? values.password ?? '';
    setSaving(true);
    try {
      await validatePhone(
        { phone: values.phone.trim(), code: values.smsCode.trim(), password, ...(proof?.oldCode ? { oldCode: proof.oldCode } : {}) },
        [ERRORS.PASSWORD_WRONG.code],
      );
      message.success(changing ? '手机号已更换' : '手机号绑定成功');
      onBound();
    } catch (e) {
      // A wrong password belongs under its field (step 1 when replacing); the rest the API client showed.
      if (e instanceof ApiCallError && e.failure.kind === 'badRequest' && e.failure.errorCode === ERRORS.PASSWORD_WRONG.code) {
        const text = e.failure.errorMessage;
        if (changing) {
          setProof(null);
          setTimeout(() => verifyForm.setFields([{ name: 'password', errors: [text] }]));
        } else bindForm.setFields([{ name: 'password', errors: [text] }]);
      }
    } finally {
      setSaving(false);
    }
  }

  const passwordItem = (
    <Form.Item label="登录密码" name="password" rules={PASSWORD_RULES} extra="为保护账号安全，请先验证登录密码">
      <Input.Password data-testid="bind-password" prefix={<LockOutlined />} placeholder="请输入当前登录密码" maxLength={PASSWORD_MAX_LENGTH} autoComplete="current-password" />
    </Form.Item>
  );

  const footer =
    step === 'verify' ? (
      <Space>
        <Button onClick={onClose}>取消</Button>
        <Button type="primary" onClick={next} data-testid="bind-next">
          下一步
        </Button>
      </Space>
    ) : (
      <Space>
        {changing ? <Button onClick={() => setProof(null)}>上一步</Button> : <Button onClick={onClose}>取消</Button>}
        <Button type="primary" onClick={submit} loading={saving} data-testid="bind-phone-ok">
          {changing ? '确认更换' : '绑定'}
        </Button>
      </Space>
    );

  return (
    <Modal title={changing ? `更换手机号 · ${step === 'verify' ? '验证身份' : '绑定新手机号'}` : '绑定手机号'} open={open} onCancel={onClose} footer={footer} destroyOnHidden>
      {step === 'verify' ? (
        // Keyed: without it React would keep the first <Form>, which stays bound to the first form instance.
        <Form key="verify" form={verifyForm} layout="vertical" requiredMark={false} autoComplete="off" name="verify-phone" preserve={false} initialValues={{ oldPhone: currentPhone }}>
          {passwordItem}
          {needsOldCode && (
            <>
              <Typography.Paragraph type="secondary" data-testid="verify-old-phone">
                验证码将发送至当前绑定的手机号 {maskPhone(currentPhone)}
              </Typography.Paragraph>
              <Form.Item name="oldPhone" hidden>
                <Input />
              </Form.Item>
              <SmsCodeFields form={verifyForm} phoneField="oldPhone" purpose="verifyPhone" testIdPrefix="verify" />
            </>
          )}
        </Form>
      ) : (
        <Form key="bind" form={bindForm} layout="vertical" requiredMark={false} autoComplete="off" name="bind-phone" preserve={false}>
          {!changing && passwordItem}
          <Form.Item label={changing ? '新手机号' : '手机号'} name="phone" validateTrigger="onBlur" rules={[{ required: true, pattern: PHONE_PATTERN, message: '请输入正确的手机号码' }]}>
            <Input data-testid="bind-phone" prefix={<MobileOutlined />} placeholder="请输入手机号" maxLength={11} inputMode="tel" />
          </Form.Item>
          <SmsCodeFields form={bindForm} phoneField="phone" purpose="bindPhone" testIdPrefix="bind" />
        </Form>
      )}
    </Modal>
  );
}
