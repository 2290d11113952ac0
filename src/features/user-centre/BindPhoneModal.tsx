import { MobileOutlined } from '@ant-design/icons';
import { Form, Input, Modal, type ButtonProps } from 'antd';
import { useState } from 'react';
import { PHONE_PATTERN } from '../../../common/api/types';
import { SmsCodeFields } from '../../components/SmsCodeFields';
import { validatePhone } from '../../lib/account-api';
import { useFeedback } from '../../lib/feedback/feedback';

interface Fields {
  phone: string;
  captchaCode: string;
  smsCode: string;
}

/** Binds (or changes) the caller's phone: SMS code sent for purpose bindPhone, then POST phone/validate. */
export function BindPhoneModal({ open, onClose, onBound }: { open: boolean; onClose: () => void; onBound: () => void }) {
  const { message } = useFeedback();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);

  async function submit() {
    let values: Fields;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    try {
      await validatePhone({ phone: values.phone.trim(), code: values.smsCode.trim() });
      message.success('手机号绑定成功');
      form.resetFields();
      onBound();
    } catch {
      // shown by the API client (wrong code, phone in use...)
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal title="绑定手机号" open={open} onOk={submit} onCancel={onClose} okText="绑定" cancelText="取消" confirmLoading={saving} destroyOnHidden okButtonProps={{ 'data-testid': 'bind-phone-ok' } as ButtonProps}>
      <Form form={form} layout="vertical" requiredMark={false} autoComplete="off" name="bind-phone" preserve={false}>
        <Form.Item label="手机号" name="phone" validateTrigger="onBlur" rules={[{ required: true, pattern: PHONE_PATTERN, message: '请输入正确的手机号码' }]}>
          <Input data-testid="bind-phone" prefix={<MobileOutlined />} placeholder="请输入手机号" maxLength={11} inputMode="tel" />
        </Form.Item>
        <SmsCodeFields form={form} phoneField="phone" purpose="bindPhone" testIdPrefix="bind" />
      </Form>
    </Modal>
  );
}
