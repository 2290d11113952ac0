import { FolderAddOutlined, FolderOpenOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useEffect, useRef } from 'react';
import type { FolderEntry } from '../../../common/transfer/engine-api';
import { folderEntriesFromInput } from '../../lib/folder-walk';

/** '上传文件' (a hidden multi-file input), '上传文件夹' (a hidden folder input) and '新建文件夹'. */
export function FileToolbar({ onFiles, onFolder, onMkdir }: { onFiles: (files: File[]) => void; onFolder: (entries: FolderEntry<File>[]) => void; onMkdir: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Not in React's attribute list: set on the element.
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, []);
  return (
    <Space>
      <Button type="primary" icon={<UploadOutlined />} onClick={() => input.current?.click()} data-testid="toolbar-upload">
        上传文件
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="upload-input"
        aria-label="选择要上传的文件"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      <Button icon={<FolderOpenOutlined />} onClick={() => folderInput.current?.click()} data-testid="toolbar-upload-folder">
        上传文件夹
      </Button>
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        data-testid="upload-folder-input"
        aria-label="选择要上传的文件夹"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length > 0) onFolder(folderEntriesFromInput(files));
        }}
      />
      <Button icon={<FolderAddOutlined />} onClick={onMkdir} data-testid="toolbar-mkdir">
        新建文件夹
      </Button>
    </Space>
  );
}
