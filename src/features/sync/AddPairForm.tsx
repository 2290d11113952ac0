import { Button, Checkbox, Flex, Input, Radio, Typography } from 'antd';
import { useState } from 'react';
import type { NewSyncPair } from '../../../common/desktop/bridge';
import type { SyncMode } from '../../../common/sync/types';
import { useFeedback } from '../../lib/feedback/feedback';
import { desktopSync } from './use-desktop-sync';
import { MODE_LABELS } from './sync-labels';

/** 添加同步文件夹: a local folder (the system's picker), the folder in 同步文件, the mode and the rules. */
export function AddPairForm({ onDone }: { onDone(): void }) {
  const { message } = useFeedback();
  const [localDir, setLocalDir] = useState('');
  const [remotePath, setRemotePath] = useState('');
  const [mode, setMode] = useState<SyncMode>('two-way');
  const [deleteRemote, setDeleteRemote] = useState(false);
  const [ignore, setIgnore] = useState('');
  const [busy, setBusy] = useState(false);

  const choose = async () => {
    const picked = await desktopSync()?.chooseFolder();
    if (!picked) return;
    setLocalDir(picked);
    // The cloud folder defaults to the local folder's name.
    if (!remotePath) setRemotePath(`/${picked.split(/[\\/]/).filter(Boolean).pop() ?? ''}`);
  };

  const submit = async () => {
    const sync = desktopSync();
    if (!sync) return;
    setBusy(true);
    const pair: NewSyncPair = { localDir, remotePath, mode, deleteRemote: mode === 'backup' && deleteRemote, ignore: ignore.split('\n') };
    try {
      await sync.addPair(pair);
      void message.success('已添加同步文件夹，正在开始同步');
      onDone();
    } catch (error) {
      // The desktop checks every value; its reason is shown as it is (Chinese).
      void message.error(error instanceof Error ? error.message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '') : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={12} data-testid="sync-add-form">
      <Flex gap={8} align="center">
        <Input value={localDir} readOnly placeholder="本机文件夹" data-testid="sync-local-dir" />
        <Button onClick={() => void choose()} data-testid="sync-choose-folder">
          选择文件夹
        </Button>
      </Flex>
      <Input addonBefore="同步文件/" value={remotePath.replace(/^\/+/, '')} onChange={(e) => setRemotePath(`/${e.target.value}`)} placeholder="云端文件夹，如 笔记本/文档" data-testid="sync-remote-path" />
      <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as SyncMode)} data-testid="sync-mode">
        <Radio value="two-way">{MODE_LABELS['two-way']}</Radio>
        <Radio value="backup">{MODE_LABELS.backup}</Radio>
      </Radio.Group>
      <Typography.Text type="secondary">
        {mode === 'two-way' ? '两边的修改都会同步；两边都改了同一个文件时，两份都保留（本机的一份另存为冲突副本）。' : '只把本机的文件备份到云端；云端文件的早期版本都会保留。'}
      </Typography.Text>
      {mode === 'backup' && (
        <Checkbox checked={deleteRemote} onChange={(e) => setDeleteRemote(e.target.checked)} data-testid="sync-delete-remote">
          本机删除的文件，云端也移入回收站
        </Checkbox>
      )}
      <Input.TextArea value={ignore} onChange={(e) => setIgnore(e.target.value)} rows={3} placeholder={'不同步的文件（每行一条规则），如\n*.tmp\nnode_modules/'} data-testid="sync-ignore" />
      <Flex justify="end" gap={8}>
        <Button onClick={onDone}>取消</Button>
        <Button type="primary" loading={busy} disabled={!localDir || remotePath.replace(/\//g, '') === ''} onClick={() => void submit()} data-testid="sync-add-submit">
          开始同步
        </Button>
      </Flex>
    </Flex>
  );
}
