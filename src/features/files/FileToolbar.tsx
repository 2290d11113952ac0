import { FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useRef } from 'react';

/** '上传文件' (a hidden multi-file input) and '新建文件夹'. */
export function FileToolbar({ onFiles, onMkdir }: { onFiles: (files: File[]) => void; onMkdir: () => void }) {
  const input = useRef<HTMLInputElement>(null);
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
      <Button icon={<FolderAddOutlined />} onClick={onMkdir} data-testid="toolbar-mkdir">
        新建文件夹
      </Button>
    </Space>
  );
}
