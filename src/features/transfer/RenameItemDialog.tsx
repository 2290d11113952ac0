import { Button, Input, Modal, Typography, type InputRef } from 'antd';
import { memo, useEffect, useRef, useState } from 'react';
import { NAME_MAX_LENGTH } from '../../../common/constants';
import type { TransferItemView } from '../../../common/transfer/engine-api';
import { checkFileName, suggestFileName } from '../../../common/validation/names';
import { NameFix } from '../../components/NameFix';

/** The base name's end: before the last dot, unless the name starts with it ('.env') or has none. */
function baseNameEnd(name: string): number {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? dot : name.length;
}

/**
 * 重命名 of an upload whose name the server refused: a name checked as it is typed (the reason in
 * Chinese under the input, and the full-width fix one click away), offered first as that fix, its base
 * name selected. `onRename` rejects with the reason when the engine refuses the name.
 */
export const RenameItemDialog = memo(function RenameItemDialog({ item, onRename, onClose }: { item: TransferItemView | null; onRename: (id: string, name: string) => Promise<void>; onClose: () => void }) {
  return (
    <Modal open={item !== null} title="重命名后继续上传" onCancel={onClose} footer={null} destroyOnHidden>
      {item && <RenameForm item={item} onRename={onRename} onClose={onClose} />}
    </Modal>
  );
});

function RenameForm({ item, onRename, onClose }: { item: TransferItemView; onRename: (id: string, name: string) => Promise<void>; onClose: () => void }) {
  const [name, setName] = useState(() => suggestFileName(item.name) ?? item.name);
  const [saving, setSaving] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const input = useRef<InputRef>(null);
  const problem = checkFileName(name)?.message ?? refusal;

  useEffect(() => {
    const el = input.current?.input;
    el?.focus();
    el?.setSelectionRange(0, baseNameEnd(el.value));
  }, []);

  async function submit(): Promise<void> {
    if (checkFileName(name) || saving) return;
    setSaving(true);
    try {
      await onRename(item.id, name);
      onClose();
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div data-testid="transfer-rename-dialog">
      <Typography.Paragraph type="secondary" style={{ wordBreak: 'break-all' }}>
        「{item.name}」未能上传：{item.lastError ?? '名称不符合命名规则'}。改名后将从已上传的部分继续。
      </Typography.Paragraph>
      <Input
        ref={input}
        value={name}
        maxLength={NAME_MAX_LENGTH}
        status={problem ? 'error' : undefined}
        onChange={(e) => {
          setName(e.target.value);
          setRefusal(null);
        }}
        onPressEnter={() => void submit()}
        aria-label="新名称"
        data-testid="transfer-rename-input"
      />
      <div style={{ minHeight: 22 }}>
        {problem && (
          <Typography.Text type="danger" style={{ fontSize: 12, display: 'block' }} data-testid="transfer-rename-problem">
            {problem}
          </Typography.Text>
        )}
        <NameFix value={name} onFix={setName} testId="transfer-rename-fix" />
      </div>
      <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginTop: 12 }}>
        <Button onClick={onClose}>取消</Button>
        <Button type="primary" disabled={problem !== null} loading={saving} onClick={() => void submit()} data-testid="transfer-rename-ok">
          重命名并继续
        </Button>
      </div>
    </div>
  );
}
