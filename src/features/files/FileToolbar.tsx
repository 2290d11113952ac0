import { ClearOutlined, FileAddOutlined, FolderAddOutlined, FolderOpenOutlined, SortAscendingOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Input, Space } from 'antd';
import { type RefObject, useEffect, useRef } from 'react';
import type { FileSortField } from '../../../common/api/types';
import type { FolderEntry } from '../../../common/transfer/engine-api';
import { Permission } from '../../lib/button-permissions';
import { folderEntriesFromInput } from '../../lib/folder-walk';
import type { BrowserSource } from './browser-source';
import { ACTION_LABELS, PAGE_PERMISSIONS, type FileAction, type OfferedAction } from './file-actions';
import type { SortState } from './sort-state';

const SORT_LABELS: Record<FileSortField, string> = { name: '名称', size: '大小', updatedAt: '修改时间' };

/** Actions shown as toolbar buttons for a selection (the rest stay in the context menu). */
const TOOLBAR_ACTIONS: readonly FileAction[] = ['download', 'zip', 'rename', 'move', 'copy', 'delete', 'favorite', 'unfavorite', 'lock', 'unlock', 'uploadVersion', 'versions', 'restore', 'purge'];

export interface FileToolbarProps {
  source: BrowserSource;
  /** Actions for the selection, already filtered by button permissions. */
  offered: OfferedAction[];
  selectionCount: number;
  canUpload: boolean;
  /** New folder / new text file here (false in 共享文件: nothing is created in someone else's folder). */
  canCreate: boolean;
  onFiles: (files: File[]) => void;
  onFolder: (entries: FolderEntry<File>[]) => void;
  onMkdir: () => void;
  onCreateTxt: () => void;
  onAction: (action: FileAction) => void;
  onEmptyRecycle: () => void;
}

export interface FileSearchToolsProps {
  source: BrowserSource;
  /** null = no sort control on this page. */
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  onSearch: (keyword: string) => void;
}

/**
 * Page actions (upload, upload folder, new folder, new text file; empty the recycle bin) and the batch
 * actions of the selection. Every button is gated by its permission code.
 */
export function FileToolbar(p: FileToolbarProps) {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Not in React's attribute list: set on the element.
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, []);
  const folderMode = p.source.mode === 'folder';

  return (
    // At least one button high before the permissions arrive: the list below does not jump when they do.
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', minHeight: 32 }} data-testid="file-toolbar">
      {/* Outside the Space: its items are keyed by position, which would hand one input's DOM node to the other. */}
      <HiddenPicker inputRef={input} testId="upload-input" label="选择要上传的文件" onPick={p.onFiles} />
      <HiddenPicker inputRef={folderInput} testId="upload-folder-input" label="选择要上传的文件夹" onPick={(files) => p.onFolder(folderEntriesFromInput(files))} />
      <Space wrap>
        {folderMode && p.canUpload && (
          <>
            <Button type="primary" icon={<UploadOutlined />} onClick={() => input.current?.click()} data-testid="toolbar-upload">
              上传文件
            </Button>
            <Button icon={<FolderOpenOutlined />} onClick={() => folderInput.current?.click()} data-testid="toolbar-upload-folder">
              上传文件夹
            </Button>
          </>
        )}
        {folderMode && p.canCreate && (
          <Permission code={PAGE_PERMISSIONS.mkdir}>
            <Button icon={<FolderAddOutlined />} onClick={p.onMkdir} data-testid="toolbar-mkdir">
              新建文件夹
            </Button>
          </Permission>
        )}
        {folderMode && p.canCreate && (
          <Permission code={PAGE_PERMISSIONS.createTxt}>
            <Button icon={<FileAddOutlined />} onClick={p.onCreateTxt} data-testid="toolbar-create-txt">
              新建文本文件
            </Button>
          </Permission>
        )}
        {p.source.mode === 'recycle' && p.selectionCount === 0 && (
          <Permission code={PAGE_PERMISSIONS.emptyRecycle}>
            <Button danger icon={<ClearOutlined />} onClick={p.onEmptyRecycle} data-testid="toolbar-empty-recycle">
              清空回收站
            </Button>
          </Permission>
        )}
        {p.selectionCount > 0 && (
          <Space.Compact data-testid="selection-actions">
            {p.offered
              .filter((o) => TOOLBAR_ACTIONS.includes(o.action))
              .map((o) => (
                <Button
                  key={o.action}
                  danger={o.action === 'delete' || o.action === 'purge'}
                  disabled={o.disabledReason !== null}
                  title={o.disabledReason ?? undefined}
                  onClick={() => p.onAction(o.action)}
                  data-testid={`action-${o.action}`}
                >
                  {ACTION_LABELS[o.action]}
                </Button>
              ))}
          </Space.Compact>
        )}
        {p.selectionCount > 0 && <span data-testid="selection-count">已选 {p.selectionCount} 项</span>}
      </Space>
    </div>
  );
}

/** A hidden multi-file input: hands over what was picked (if anything) and clears itself, so the same files can be picked again. */
function HiddenPicker({ inputRef, testId, label, onPick }: { inputRef: RefObject<HTMLInputElement | null>; testId: string; label: string; onPick: (files: File[]) => void }) {
  return (
    <input
      ref={inputRef}
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

/**
 * Sort and search, beside the breadcrumb: they do not depend on button permissions, so the header row
 * has its final height from the first frame.
 */
export function FileSearchTools(p: FileSearchToolsProps) {
  return (
    <Space wrap>
      {p.sort && (
        <Dropdown
          menu={{
            selectable: true,
            selectedKeys: [`${p.sort.field}:${p.sort.order}`],
            items: (Object.keys(SORT_LABELS) as FileSortField[]).flatMap((field) => [
              { key: `${field}:asc`, label: `${SORT_LABELS[field]} 升序` },
              { key: `${field}:desc`, label: `${SORT_LABELS[field]} 降序` },
            ]),
            onClick: ({ key }) => {
              const [field, order] = key.split(':') as [FileSortField, 'asc' | 'desc'];
              p.onSort({ field, order });
            },
          }}
        >
          <Button icon={<SortAscendingOutlined />} data-testid="toolbar-sort">
            排序：{SORT_LABELS[p.sort.field]}
            {p.sort.order === 'asc' ? '↑' : '↓'}
          </Button>
        </Dropdown>
      )}
      {p.source.mode !== 'search' && (
        <Input.Search
          placeholder={p.source.mode === 'folder' ? '搜索当前空间的文件' : '搜索全部文件'}
          allowClear
          enterButton
          onSearch={(v) => v.trim() && p.onSearch(v.trim())}
          style={{ width: 260 }}
          data-testid="toolbar-search"
        />
      )}
    </Space>
  );
}
