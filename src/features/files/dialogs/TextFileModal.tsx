import { Button, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { NAME_MAX_LENGTH } from '../../../../common/constants';
import type { CreateTxtRequest, KeepOnCreateTxtRequest } from '../../../../common/api/endpoints/files';
import { TEXT_FILE_MAX_BYTES, type CreateTxtResponse, type KeepOnCreateTxtResponse } from '../../../../common/api/types';
import { checkFileName } from '../../../../common/validation/names';
import { NameFix } from '../../../components/NameFix';
import type { FolderScope } from '../files-api';

interface Held {
  holdId: string;
  name: string;
  suggestedName: string;
  existingIsDir: boolean;
}

/**
 * 新建文本文件 (createTxt). When the name is taken the server keeps the text and asks: save under a free
 * name, save as a new version of the existing file (not when that is a folder), or give up
 * (keepOnCreateTxt). Nothing typed is lost while the user decides. The calls, their toasts and the
 * offline outbox are the file actions' (actions/use-file-actions.tsx).
 */
export function TextFileModal({
  open,
  scope,
  parentId,
  create,
  keep,
  onClose,
}: {
  open: boolean;
  scope: FolderScope;
  parentId: string | null;
  /** Null when kept in the outbox (offline: created when the network is back, a clash is asked then). */
  create: (req: CreateTxtRequest, scope: FolderScope) => Promise<CreateTxtResponse | null>;
  keep: (req: KeepOnCreateTxtRequest) => Promise<KeepOnCreateTxtResponse | null>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ name: string; content: string }>();
  const typedName = Form.useWatch('name', form) as string | undefined;
  const fixName = (name: string): void => {
    form.setFieldValue('name', name);
    form.validateFields(['name']).catch(() => undefined);
  };
  const [busy, setBusy] = useState(false);
  const [held, setHeld] = useState<Held | null>(null);

  async function submit() {
    let values: { name: string; content: string };
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const name = values.name.trim();
    setBusy(true);
    try {
      const req = { parentId, category: scope.category, spaceId: scope.spaceId, name, content: values.content ?? '' };
      const answer = await create(req, scope);
      if (!answer || answer.status === 'created') {
        onClose();
      } else {
        setHeld({ holdId: answer.holdId, name, suggestedName: answer.conflict.suggestedName, existingIsDir: answer.conflict.existingIsDir });
      }
    } catch {
      // shown by the API client; the dialog keeps the text
    } finally {
      setBusy(false);
    }
  }

  async function decide(decision: 'rename' | 'newVersion' | 'giveUp') {
    if (!held) return;
    setBusy(true);
    try {
      const answer = await keep({ holdId: held.holdId, decision });
      setHeld(null);
      if (answer?.status === 'created') onClose();
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Modal open={open && !held} title="新建文本文件" onOk={submit} onCancel={onClose} confirmLoading={busy} destroyOnHidden width={640}>
        <Form form={form} layout="vertical" preserve={false} initialValues={{ name: '新建文本文档.txt', content: '' }}>
          <Form.Item
            name="name"
            label="文件名"
            // Checked as it is typed: the reason shows at once (and the full-width fix under it).
            validateTrigger="onChange"
            extra={<NameFix value={typedName ?? '新建文本文档.txt'} onFix={fixName} testId="txt-name-fix" />}
            rules={[
              {
                validator: async (_r, value: string | undefined) => {
                  const problem = checkFileName(value ?? '');
                  if (problem) throw new Error(problem.message);
                },
              },
            ]}
          >
            <Input data-testid="txt-name-input" maxLength={NAME_MAX_LENGTH} />
          </Form.Item>
          <Form.Item
            name="content"
            label="内容"
            rules={[
              {
                validator: async (_r, value: string | undefined) => {
                  if (new TextEncoder().encode(value ?? '').length > TEXT_FILE_MAX_BYTES) throw new Error('文本内容过大');
                },
              },
            ]}
          >
            <Input.TextArea data-testid="txt-content-input" autoSize={{ minRows: 6, maxRows: 16 }} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={held !== null} title="存在同名文件" footer={null} onCancel={() => void decide('giveUp')} destroyOnHidden>
        {held && (
          <div data-testid="txt-conflict">
            <Typography.Paragraph>
              当前目录下已存在「{held.name}」。请选择：保存为「{held.suggestedName}」{held.existingIsDir ? '' : '，或作为已有文件的新版本保存'}，或放弃。
            </Typography.Paragraph>
            <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
              <Button onClick={() => void decide('giveUp')} disabled={busy} data-testid="txt-giveup">
                放弃
              </Button>
              {!held.existingIsDir && (
                <Button onClick={() => void decide('newVersion')} disabled={busy} data-testid="txt-newversion">
                  作为新版本
                </Button>
              )}
              <Button type="primary" onClick={() => void decide('rename')} loading={busy} data-testid="txt-rename">
                重命名保存
              </Button>
            </Space>
          </div>
        )}
      </Modal>
    </>
  );
}
