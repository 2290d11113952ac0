import { AppstoreOutlined, ClearOutlined, CloseOutlined, EllipsisOutlined, FileAddOutlined, FolderAddOutlined, FolderOpenOutlined, SortAscendingOutlined, UnorderedListOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Dropdown, Input, Space } from 'antd';
import { cloneElement, type ReactElement, type ReactNode, type RefObject, startTransition, useEffect, useRef, useState } from 'react';
import type { FileSortField } from '../../../../common/api/types';
import type { FolderEntry } from '../../../../common/transfer/engine-api';
import { usePermissionCheck } from '../../../lib/button-permissions';
import { folderEntriesFromInput } from '../../../lib/folder-walk';
import type { BrowserSource } from '../listing/browser-source';
import { ACTION_LABELS, PAGE_PERMISSIONS, type FileAction, type OfferedAction } from '../actions/file-actions';
import type { SortState } from '../listing/sort-state';
import type { FileView } from './file-view';
import './file-table.css';
import { buttonWidth, fittingCount, textWidth } from './toolbar-fit';
import { useElementSize } from '../../../lib/use-element-size';
import { TOUCH_TARGET_PX, usePhone } from '../../../lib/use-phone';

const SORT_LABELS: Record<FileSortField, string> = { name: '名称', size: '大小', updatedAt: '修改时间' };

/** Actions shown as toolbar buttons for a selection (the rest stay in the context menu). */
const TOOLBAR_ACTIONS: readonly FileAction[] = ['download', 'zip', 'share', 'rename', 'move', 'copy', 'delete', 'favorite', 'unfavorite', 'lock', 'unlock', 'uploadVersion', 'versions', 'restore', 'purge'];

/** Only for one entry in the bar (the same dialog as the row's 分享); several stay in the context menu. */
const SINGLE_ONLY: ReadonlySet<FileAction> = new Set<FileAction>(['share']);

/** Page actions that stay in front of the batch bar while something is selected (issue 44). */
const KEPT_WHILE_SELECTING: ReadonlySet<string> = new Set(['upload', 'mkdir']);

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
  /** The recycle bin holds nothing (its last page loaded): 清空回收站 is disabled. */
  recycleEmpty?: boolean;
  /** 取消选择 (also Esc in the list). */
  onClearSelection: () => void;
}

export interface FileSearchToolsProps {
  source: BrowserSource;
  /** null = no sort control on this page. */
  sort: SortState | null;
  onSort: (sort: SortState) => void;
  view: FileView;
  onView: (view: FileView) => void;
  onSearch: (keyword: string) => void;
}

interface ToolbarButton {
  key: string;
  label: string;
  icon?: ReactNode;
  primary?: boolean;
  danger?: boolean;
  disabledReason?: string | null;
  testId: string;
  onClick: () => void;
}

/**
 * Page actions (upload, upload folder, new folder, new text file; empty the recycle bin) or, while
 * something is selected, the batch bar in their place (as in Baidu Netdisk) with 上传文件 and
 * 新建文件夹 kept in front as icons: one line of fixed height either way, so selecting never moves the
 * list, sort or search. What does not fit goes into 更多. Every button is gated by its permission code.
 */
export function FileToolbar(p: FileToolbarProps) {
  const input = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  const width = useElementSize(bar, WIDE_FALLBACK).width;
  const phone = usePhone();
  const permitted = usePermissionCheck();
  const folderMode = p.source.mode === 'folder';
  // The pickers exist only while this folder takes uploads: before the page's permissions have loaded
  // (just after sign-in) an input that was there took the files and the page dropped them, silently.
  const uploadable = folderMode && p.canUpload;
  useEffect(() => {
    // Not in React's attribute list: set on the element.
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, [uploadable]);

  const pageButtons: ToolbarButton[] = [];
  if (uploadable) {
    pageButtons.push(
      { key: 'upload', label: '上传文件', icon: <UploadOutlined />, primary: true, testId: 'toolbar-upload', onClick: () => input.current?.click() },
      { key: 'uploadFolder', label: '上传文件夹', icon: <FolderOpenOutlined />, testId: 'toolbar-upload-folder', onClick: () => folderInput.current?.click() },
    );
  }
  if (folderMode && p.canCreate && permitted(PAGE_PERMISSIONS.mkdir)) pageButtons.push({ key: 'mkdir', label: '新建文件夹', icon: <FolderAddOutlined />, testId: 'toolbar-mkdir', onClick: p.onMkdir });
  if (folderMode && p.canCreate && permitted(PAGE_PERMISSIONS.createTxt)) pageButtons.push({ key: 'txt', label: '新建文本文件', icon: <FileAddOutlined />, testId: 'toolbar-create-txt', onClick: p.onCreateTxt });
  if (p.source.mode === 'recycle' && permitted(PAGE_PERMISSIONS.emptyRecycle)) {
    pageButtons.push({ key: 'empty', label: '清空回收站', icon: <ClearOutlined />, danger: true, disabledReason: p.recycleEmpty ? '回收站为空' : null, testId: 'toolbar-empty-recycle', onClick: p.onEmptyRecycle });
  }

  const selecting = p.selectionCount > 0;
  const batchButtons: ToolbarButton[] = p.offered
    .filter((o) => TOOLBAR_ACTIONS.includes(o.action) && (p.selectionCount === 1 || !SINGLE_ONLY.has(o.action)))
    .map((o) => ({
      key: o.action,
      label: ACTION_LABELS[o.action],
      danger: o.action === 'delete' || o.action === 'purge',
      disabledReason: o.disabledReason,
      testId: `action-${o.action}`,
      onClick: () => p.onAction(o.action),
    }));

  const countText = `已选 ${p.selectionCount} 项`;
  // While selecting, 上传文件 and 新建文件夹 stay (icons only: the batch bar needs the room).
  const kept = selecting ? pageButtons.filter((b) => KEPT_WHILE_SELECTING.has(b.key)) : [];
  // The batch bar starts with the kept page actions, 取消选择 (an icon button) and the count.
  const lead = selecting ? (kept.length + 1) * (ICON_BUTTON_WIDTH + GAP) + textWidth(countText) + GAP : 0;
  const buttons = selecting ? batchButtons : pageButtons;
  // On a phone the page actions are icons (touch-sized, labelled for screen readers), the first one keeps a short label.
  const iconOnly = phone && !selecting;
  const widths = buttons.map((b, i) => (iconOnly ? (i === 0 ? buttonWidth('上传', true) : ICON_BUTTON_WIDTH + GAP) : buttonWidth(b.label, !selecting && b.icon !== undefined) + (selecting ? 0 : GAP)));
  const shown = fittingCount(widths, width - lead);
  const visible = buttons.slice(0, shown);
  const overflow = buttons.slice(shown);

  const render = (b: ToolbarButton, i: number) => (
    <Button
      key={b.key}
      type={b.primary ? 'primary' : 'default'}
      danger={b.danger}
      icon={b.icon}
      disabled={Boolean(b.disabledReason)}
      title={b.disabledReason ?? (iconOnly ? b.label : undefined)}
      aria-label={iconOnly ? b.label : undefined}
      onClick={b.onClick}
      data-testid={b.testId}
    >
      {iconOnly ? (i === 0 && b.primary ? '上传' : null) : b.label}
    </Button>
  );
  const more = overflow.length > 0 && (
    <Dropdown
      trigger={['click']}
      menu={{
        items: overflow.map((b) => ({
          key: b.key,
          label: b.disabledReason ? `${b.label}（${b.disabledReason}）` : b.label,
          icon: b.icon,
          danger: b.danger,
          disabled: Boolean(b.disabledReason),
          'data-testid': b.testId,
        })),
        onClick: ({ key }) => overflow.find((b) => b.key === key)?.onClick(),
      }}
    >
      <Button icon={<EllipsisOutlined />} data-testid="toolbar-more">
        更多
      </Button>
    </Dropdown>
  );

  return (
    // One line, always the same height (a control's), whatever is selected: the list below never moves.
    <div ref={bar} className="file-toolbar" data-testid="file-toolbar" data-selecting={selecting || undefined}>
      {/* Outside the button row: React keys them apart from the buttons, which come and go. */}
      {uploadable && <HiddenPicker inputRef={input} testId="upload-input" label="选择要上传的文件" onPick={p.onFiles} />}
      {uploadable && <HiddenPicker inputRef={folderInput} testId="upload-folder-input" label="选择要上传的文件夹" onPick={(files) => p.onFolder(folderEntriesFromInput(files))} />}
      {selecting ? (
        <>
          {kept.map((b) => (
            <Button key={b.key} type={b.primary ? 'primary' : 'default'} icon={b.icon} aria-label={b.label} title={b.label} onClick={b.onClick} data-testid={b.testId} />
          ))}
          <Button type="text" icon={<CloseOutlined />} aria-label="取消选择" title="取消选择（Esc）" onClick={p.onClearSelection} data-testid="selection-clear" />
          <span data-testid="selection-count" style={{ whiteSpace: 'nowrap' }}>
            {countText}
          </span>
          <Space.Compact data-testid="selection-actions">
            {visible.map(render)}
            {more}
          </Space.Compact>
        </>
      ) : (
        <>
          {visible.map(render)}
          {more}
        </>
      )}
    </div>
  );
}

/** Until the bar is measured: as wide as a desktop content area. */
const WIDE_FALLBACK = { width: 1100, height: 32 };
const GAP = 8;
/** An icon-only button (a touch target on a phone). */
const ICON_BUTTON_WIDTH = TOUCH_TARGET_PX;

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
  const phone = usePhone();
  const sortText = p.sort ? `${SORT_LABELS[p.sort.field]}${p.sort.order === 'asc' ? '↑' : '↓'}` : '';
  return (
    // On a phone one line under the title: the search takes the width, sort and view are icons.
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: phone ? 'nowrap' : 'wrap', justifyContent: 'flex-end', width: phone ? '100%' : undefined }}>
      {p.source.mode !== 'search' && (
        <Input.Search
          placeholder={p.source.mode === 'folder' ? '搜索当前空间的文件' : '搜索全部文件'}
          aria-label={p.source.mode === 'folder' ? '搜索当前空间的文件' : '搜索全部文件'}
          allowClear
          enterButton
          onSearch={(v) => v.trim() && p.onSearch(v.trim())}
          style={phone ? { flex: 1, minWidth: 0 } : { width: 260, order: 3 }}
          data-testid="toolbar-search"
        />
      )}
      {p.sort && (
        <SortMenu
          sort={p.sort}
          onSort={p.onSort}
          button={
            <Button icon={<SortAscendingOutlined />} aria-label={`排序：${sortText}`} title={`排序：${sortText}`} data-testid="toolbar-sort" style={{ flex: 'none' }}>
              {phone ? null : `排序：${sortText}`}
            </Button>
          }
        />
      )}
      {phone ? (
        <Button
          icon={p.view === 'list' ? <AppstoreOutlined /> : <UnorderedListOutlined />}
          aria-label={p.view === 'list' ? '切换到缩略图视图' : '切换到列表视图'}
          title={p.view === 'list' ? '切换到缩略图视图' : '切换到列表视图'}
          onClick={() => p.onView(p.view === 'list' ? 'grid' : 'list')}
          data-testid={p.view === 'list' ? 'view-grid' : 'view-list'}
          style={{ flex: 'none' }}
        />
      ) : (
        <Space.Compact>
          <Button icon={<UnorderedListOutlined />} type={p.view === 'list' ? 'primary' : 'default'} aria-label="列表视图" aria-pressed={p.view === 'list'} title="列表视图" onClick={() => p.onView('list')} data-testid="view-list" />
          <Button icon={<AppstoreOutlined />} type={p.view === 'grid' ? 'primary' : 'default'} aria-label="缩略图视图" aria-pressed={p.view === 'grid'} title="缩略图视图" onClick={() => p.onView('grid')} data-testid="view-grid" />
        </Space.Compact>
      )}
    </div>
  );
}

/**
 * 排序's menu. Its Dropdown mounts in a render of its own after the page's first commit (or at once when
 * the button is pressed before that): antd's trigger sets state while it mounts (its target's ref, its
 * popup's readiness in a layout effect), a synchronous update that made React run the passive effects
 * of the whole shell's first commit, and the re-render, inside that commit's task — the longest task of
 * a cold 个人文件 (Lighthouse: total blocking time). Until then the same button stands there alone.
 */
function SortMenu({ sort, onSort, button }: { sort: SortState; onSort: (sort: SortState) => void; button: ReactElement<{ onClick?: () => void }> }) {
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => startTransition(() => setMounted(true)), []);
  if (!mounted) return cloneElement(button, { onClick: () => (setMounted(true), setOpen(true)) });
  return (
    // On click, not hover: hovering on the way to the list opened it over the first rows.
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [`${sort.field}:${sort.order}`],
        items: (Object.keys(SORT_LABELS) as FileSortField[]).flatMap((field) => [
          { key: `${field}:asc`, label: `${SORT_LABELS[field]} 升序` },
          { key: `${field}:desc`, label: `${SORT_LABELS[field]} 降序` },
        ]),
        onClick: ({ key }) => {
          const [field, order] = key.split(':') as [FileSortField, 'asc' | 'desc'];
          setOpen(false);
          onSort({ field, order });
        },
      }}
    >
      {button}
    </Dropdown>
  );
}
