import { Form, Input, Modal, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { NAME_MAX_LENGTH } from '../../../../common/constants';
import { checkFileName, checkIdentifierName } from '../../../../common/validation/names';
import { NameFix } from '../../../components/NameFix';

/**
 * A modal asking for a name, validated on the client with the spec §5 rule that applies (Chinese
 * messages from common/validation), as it is typed: 'file' forbids | , / < > * ? \ [ ] (files and
 * folders) and offers the name with their full-width twins in one click;
 * 'identifier' allows only Chinese, letters, digits and underscore (group names). `onSubmit` rejects when the server refuses (the API client shows why),
 * which keeps the modal open.
 */
export function NameModal({
  open,
  title,
  initialName,
  inputTestId,
  rule = 'file',
  selectUntil,
  onSubmit,
  onClose,
}: {
  rule?: 'file' | 'identifier';
  /** Characters of `initialName` selected when the dialog opens (重命名: the name without its extension); default all. */
  selectUntil?: number;
  open: boolean;
  title: string;
  initialName: string;
  inputTestId: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const input = useRef<InputRef>(null);

  /**
   * Once open (the dialog focuses itself first): the field focused with the part to retype selected.
   * Not when the person already typed while the dialog was still opening (its animation ends ~0.3 s
   * after the click, later on a busy machine): selecting then made the next key replace what they had
   * typed ('草稿[1]' became '1]').
   */
  function selectName(opened: boolean) {
    const el = input.current?.input;
    if (!opened || !el || form.isFieldTouched('name')) return;
    el.focus();
    el.setSelectionRange(0, selectUntil ?? el.value.length);
  }

  const typed = Form.useWatch('name', form) as string | undefined;
  const fix = (name: string): void => {
    form.setFieldValue('name', name);
    form.validateFields(['name']).catch(() => undefined);
  };
  const problemOf = (value: string) => (rule === 'file' ? checkFileName : checkIdentifierName)(value);

  async function ok() {
    try {
      await form.validateFields();
    } catch (error) {
      // A field error is shown under the input. A rejection without one is antd's "out of date": the
      // blur of the input (its onBlur validation) raced this click's validation. It used to end here,
      // and 确定 then did nothing (seen in the e2e suite under load): judge the current value instead.
      if ((error as { errorFields?: Array<{ errors: string[] }> }).errorFields?.some((f) => f.errors.length > 0)) return;
    }
    const name = String(form.getFieldValue('name') ?? '').trim();
    const problem = problemOf(name);
    if (problem) {
      form.setFields([{ name: 'name', errors: [problem.message] }]);
      return;
    }
    setSaving(true);
    try {
      await onSubmit(name);
      onClose();
    } catch {
      // shown by the API client
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal open={open} title={title} onOk={ok} onCancel={onClose} confirmLoading={saving} destroyOnHidden afterOpenChange={selectName}>
      <Form form={form} layout="vertical" onFinish={ok} preserve={false} initialValues={{ name: initialName }}>
        <Form.Item
          name="name"
          label="名称"
          // Checked as it is typed: the reason shows at once (and the full-width fix under it).
          validateTrigger="onChange"
          extra={rule === 'file' ? <NameFix value={typed ?? initialName} onFix={fix} testId={`${inputTestId}-fix`} /> : undefined}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const problem = problemOf(value ?? '');
                if (problem) throw new Error(problem.message);
              },
            },
          ]}
        >
          <Input ref={input} data-testid={inputTestId} maxLength={NAME_MAX_LENGTH} autoFocus placeholder="请输入名称" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
