import { FolderAddOutlined, FolderOpenOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { type RefObject, useRef } from 'react';
import type { FolderEntry } from '../../../common/transfer/engine-api';
import { Permission } from '../../lib/button-permissions';
import { folderEntriesFromInput } from '../../lib/folder-walk';

/** '上传文件' (a hidden multi-file input), '上传文件夹' (a hidden folder input) and '新建文件夹'. */
export function FileToolbar({ onFiles, onFolder, onMkdir }: { onFiles: (files: File[]) => void; onFolder: (entries: FolderEntry<File>[]) => void; onMkdir: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  return (
    <Space>
      <Permission code="file:upload">
        <Button type="primary" icon={<UploadOutlined />} onClick={() => input.current?.click()} data-testid="toolbar-upload">
          上传文件
        </Button>
        <HiddenPicker inputRef={input} testId="upload-input" label="选择要上传的文件" onPick={onFiles} />
        <Button icon={<FolderOpenOutlined />} onClick={() => folderInput.current?.click()} data-testid="toolbar-upload-folder">
          上传文件夹
        </Button>
        <HiddenPicker inputRef={folderInput} directory testId="upload-folder-input" label="选择要上传的文件夹" onPick={(files) => onFolder(folderEntriesFromInput(files))} />
      </Permission>
      <Permission code="file:mkdir">
        <Button icon={<FolderAddOutlined />} onClick={onMkdir} data-testid="toolbar-mkdir">
          新建文件夹
        </Button>
      </Permission>
    </Space>
  );
}

/** A hidden multi-file input: hands over what was picked (if anything) and clears itself, so the same files can be picked again. */
function HiddenPicker({ inputRef, directory, testId, label, onPick }: { inputRef: RefObject<HTMLInputElement | null>; directory?: boolean; testId: string; label: string; onPick: (files: File[]) => void }) {
  return (
    <input
      ref={(el) => {
        inputRef.current = el;
        // Not in React's attribute list: set on the element whenever it is (re)created — it appears
        // only once the button permissions have loaded.
        if (el && directory) {
          el.setAttribute('webkitdirectory', '');
          el.setAttribute('directory', '');
        }
      }}
      type="file"
      multiple
      hidden
      data-testid={testId}
      aria-label={label}
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        e.target.value = '';
        if (files.length > 0) onPick(files);
      }}
    />
  );
}
