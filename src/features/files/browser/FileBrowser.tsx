import { Flex, type MenuProps } from 'antd';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import type { FileEntry } from '../../../../common/api/types';
import { isPermitted, usePagePermissionCodes } from '../../../lib/button-permissions';
import { currentNetworkEnv } from '../../../lib/client-env';
import { useCurrentUser } from '../../../lib/current-user';
import { useOnline } from '../../../lib/data/online';
import { useTenantSwitches } from '../../../lib/data/sharing';
import { fileListVersionAtom } from '../../../lib/file-events';
import { useFeedback } from '../../../lib/feedback/feedback';
import { usePhone } from '../../../lib/use-phone';
import { useStoredState } from '../../../lib/use-stored-state';
import { OfflineUncached } from '../../../components/OfflineUncached';
import { ACTION_LABELS, ACTION_PERMISSIONS, actionBlocked, actionsFor, openBlocked, PAGE_PERMISSIONS, type ActionContext, type FileAction } from '../actions/file-actions';
import { useFileActions } from '../actions/use-file-actions';
import { usePickerRoots } from '../dialogs/use-picker-roots';
import { entriesByIds } from '../files-api';
import { OutboxPanel } from '../offline/OutboxPanel';
import { usePublicSpace } from '../space-queries';
import { DropOverlay } from '../uploads/DropOverlay';
import { useBrowserUploads } from '../uploads/use-browser-uploads';
import { useNewVersionUpload } from '../uploads/use-new-version-upload';
import { BrowserDialogs, type BrowserDialog } from './BrowserDialogs';
import { useFileBrowserParts } from './browser-slots';
import { listingFor, searchUrl, type BrowserSource } from '../listing/browser-source';
import { FileBreadcrumb, useFolderName } from './FileBreadcrumb';
import { FileGrid } from './FileGrid';
import { fileShortcuts } from './file-shortcuts';
import { isFileView, viewKeyOf, type FileView } from './file-view';
import { FileTable } from './FileTable';
import { FileSearchTools, FileToolbar } from './FileToolbar';
import type { ViewLayout } from './keyboard-nav';
import { SharerFilter } from './SharerFilter';
import { DEFAULT_SORT, type SortState } from '../listing/sort-state';
import { useCurrentDir } from '../listing/use-current-dir';
import { useDeepLinkOpen } from './use-deep-link-preview';
import type { DocumentTarget } from '../../../components/document/target';
import { useEntryPages } from '../listing/use-entry-pages';
import { useListSelection } from './use-list-selection';
import { useNewEntryReveal, useRevealedEntry } from '../listing/use-revealed-entry';

/**
 * The one file browser every file page uses (configured by a BrowserSource): breadcrumb and toolbar,
 * the virtualised table or grid with multi-select and a context menu, and the dialogs. What each
 * action does (online or kept in the outbox, its toast, the rows it patches) is the file actions'
 * (actions/use-file-actions.tsx); this component lays the page out and wires them.
 */
export function FileBrowser({ source, title, emptyState }: { source: BrowserSource; title: string; emptyState?: ReactNode }) {
  const { message } = useFeedback();
  const [, navigate] = useLocation();
  const [dir, openDir] = useCurrentDir();
  const user = useCurrentUser();
  // One read of the codes: the checks below, and whether they are known yet (a deep link waits for it).
  const permissionCodes = usePagePermissionCodes();
  const permitted = (code: string) => isPermitted(permissionCodes, code);
  const [sort, setSort] = useState<SortState>(DEFAULT_SORT);
  /** 共享文件, at the top: the entries of one sharer only (null = everyone's). */
  const [sharerId, setSharerId] = useState<string | null>(null);
  const sharedView = source.mode === 'folder' && source.via === 'share';
  const [view, setView] = useStoredState<FileView>(viewKeyOf(user?.id), 'list', isFileView);
  const layout = useRef<ViewLayout>({ columns: 1, pageRows: 10 });
  const [dialog, setDialog] = useState<BrowserDialog>(null);
  const newVersion = useNewVersionUpload('new-version-input');
  const online = useOnline();
  const phone = usePhone();

  const sourceKey = JSON.stringify(source);
  const folderDir = source.mode === 'folder' ? dir : null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the source is compared by value (sourceKey)
  const listing = useMemo(() => listingFor(source, folderDir, sort, { sharerId }), [sourceKey, folderDir, sort, sharerId]);
  const pages = useEntryPages<FileEntry>(listing, fileListVersionAtom);
  const pickerRoots = usePickerRoots(source, dialog?.kind === 'pick');
  const list = useListSelection(pages.items, (file) => openEntry(file));
  const { selectedIds, setSelectedIds, reset: resetSelection } = list;

  useEffect(() => resetSelection(), [listing, resetSelection]);
  useRevealedEntry(pages, folderDir, list.focus);
  const made = useNewEntryReveal(pages, folderDir, list.pointAt);
  const publicSpaceId = usePublicSpace().data?.id ?? null;
  const publicDownloadOn = useTenantSwitches().data?.publicDownLoad ?? true;

  const selection = useMemo(() => {
    const chosen = new Set(selectedIds);
    return pages.items.filter((e) => chosen.has(e.id));
  }, [pages.items, selectedIds]);

  const actions = useFileActions({
    source,
    pages,
    publicSpaceId,
    permitted,
    openDir,
    navigate,
    show: setDialog,
    clearSelection: () => setSelectedIds([]),
    pickNewVersion: newVersion.pick,
    reveal: made.reveal,
  });

  // ---- what the selection offers -----------------------------------------------------------------

  const space = source.mode === 'folder' ? source.space : undefined;
  const spaceRole = space ? space.role : undefined;
  const ctx = useMemo<ActionContext>(
    () => ({ mode: source.mode, callerId: user?.id ?? null, isAdmin: user?.role === 'admin', spaceRole, offline: !online, side: currentNetworkEnv(), publicDownloadOff: publicDownloadOn ? null : publicSpaceId }),
    [source.mode, user?.id, user?.role, spaceRole, online, publicDownloadOn, publicSpaceId],
  );
  /**
   * Every way in (menus, toolbar, a row's 下载, shortcuts, opening) asks the same rule
   * (actions/file-actions.ts): what the menu shows disabled is refused here with the same reason.
   */
  const runChecked = (action: FileAction, entries: FileEntry[]): void => {
    const reason = actionBlocked(action, entries, ctx);
    if (reason) return void message.warning(`${ACTION_LABELS[action]}：${reason}`);
    void actions.run(action, entries);
  };
  function openEntry(file: FileEntry, at?: DocumentTarget): void {
    const reason = openBlocked(file, ctx);
    if (reason) return void message.warning(`打开「${file.name}」：${reason}`);
    actions.open(file, at);
  }
  useDeepLinkOpen(openEntry, permissionCodes !== null, () => void message.error('要打开的文件不存在或无权访问'));
  // 分享 is another feature's dialog, handed in by the app layer (browser-slots.tsx).
  const { ShareDialog } = useFileBrowserParts();
  const offered = actionsFor(selection, ctx).filter((o) => {
    if (o.action === 'share' && !ShareDialog) return false;
    const code = ACTION_PERMISSIONS[o.action];
    return code === null || permitted(code);
  });
  const runOnSelection = (action: FileAction) => runChecked(action, selection);

  const contextMenu: MenuProps = {
    items: offered.map((o) => ({
      key: o.action,
      label: o.disabledReason ? `${ACTION_LABELS[o.action]}（${o.disabledReason}）` : ACTION_LABELS[o.action],
      disabled: o.disabledReason !== null,
      danger: o.action === 'delete' || o.action === 'purge',
      'data-testid': `menu-${o.action}`,
    })),
    onClick: ({ key }) => runOnSelection(key as FileAction),
  };
  const downloadOne = permitted(ACTION_PERMISSIONS.download ?? '') ? (file: FileEntry) => runChecked('download', [file]) : null;
  // The row's 下载 shows what the menu would (disabled, with the reason); a new function when the rule's inputs change.
  const downloadBlocked = useMemo(() => (file: FileEntry) => actionBlocked('download', [file], ctx), [ctx]);

  const onShortcut = fileShortcuts({
    list,
    layout,
    recycle: source.mode === 'recycle',
    open: openEntry,
    act: (action) => {
      const usable = offered.find((o) => o.action === action && o.disabledReason === null);
      if (!usable) return false;
      runOnSelection(action);
      return true;
    },
  });

  // ---- uploads -----------------------------------------------------------------------------------

  /** Where writes at the current folder go (uploads need a folder id at a space's top level); nothing is created in 共享文件. */
  const writeScope = source.mode === 'folder' && !sharedView ? source.scope : null;
  const uploadParent = dir ?? space?.rootId ?? null;
  const canUpload = writeScope !== null && permitted(PAGE_PERMISSIONS.upload);
  const folderName = useFolderName(source.mode === 'folder' ? dir : null, source.mode === 'folder' ? source.rootName : title);
  const { upload, uploadFolder, drop, dialog: uploadClashDialog } = useBrowserUploads(canUpload && writeScope ? { parentId: uploadParent, category: writeScope.category } : null, folderName);

  const sortable = source.mode === 'folder' && permitted(PAGE_PERMISSIONS.sort) ? sort : null;
  // Offline and never shown on this device: say so instead of an empty list (and stop saying 加载中…).
  const uncached = !online && !pages.cached;
  const empty = uncached ? <OfflineUncached /> : pages.loading ? null : ((folderDir === null && emptyState) || '暂无文件');
  const viewProps = {
    mode: source.mode,
    pages: uncached ? { ...pages, loading: false } : pages,
    empty,
    selectedIds,
    cursorId: list.cursorId,
    freshId: made.freshId,
    handlers: list.handlers,
    contextMenu,
    onDownload: downloadOne,
    downloadBlocked,
    layoutRef: layout,
  };

  return (
    <Flex
      vertical
      gap={12}
      style={{ flex: 1, minHeight: 0, position: 'relative' }}
      data-testid="files-page"
      data-mode={source.mode}
      onKeyDown={onShortcut}
      {...(canUpload ? drop.handlers : {})}
    >
      {canUpload && drop.dragging && <DropOverlay />}
      <Flex justify="space-between" align="center" gap={8} wrap="wrap">
        {source.mode === 'folder' ? (
          <FileBreadcrumb dir={dir} rootName={source.rootName} hiddenIds={space ? [space.rootId] : []} onOpen={openDir} />
        ) : (
          <div style={{ fontSize: 16, fontWeight: 500 }} data-testid="page-title">
            {title}
          </div>
        )}
        <Flex gap={8} align="center" wrap={phone ? false : 'wrap'} justify="flex-end" style={phone ? { width: '100%' } : undefined}>
          <OutboxPanel />
          <FileSearchTools source={source} sort={sortable} onSort={setSort} view={view} onView={setView} onSearch={(keyword) => navigate(searchUrl(source, keyword))} />
        </Flex>
      </Flex>
      {sharedView && dir === null && !uncached && <SharerFilter value={sharerId} onChange={setSharerId} />}
      <FileToolbar
        source={source}
        offered={offered}
        selectionCount={selection.length}
        canUpload={canUpload}
        canCreate={writeScope !== null}
        onFiles={(files) => void upload(files)}
        onFolder={(entries) => void uploadFolder(entries)}
        onMkdir={() => setDialog({ kind: 'mkdir' })}
        onCreateTxt={() => setDialog({ kind: 'txt' })}
        onAction={runOnSelection}
        onEmptyRecycle={actions.emptyRecycleBin}
        recycleEmpty={source.mode === 'recycle' && pages.items.length === 0 && !pages.hasMore}
        onClearSelection={() => setSelectedIds([])}
      />
      {view === 'grid' ? <FileGrid {...viewProps} /> : <FileTable {...viewProps} sort={sortable} onSort={setSort} showSharer={sharedView && dir === null} showOwner={space !== undefined} />}
      <BrowserDialogs
        dialog={dialog}
        show={setDialog}
        actions={actions}
        writeScope={writeScope}
        dir={dir}
        items={pages.items}
        pickerRoots={pickerRoots}
        mayChangeVersions={(file) => !actionsFor([file], ctx).some((o) => o.action === 'uploadVersion' && o.disabledReason)}
        // one row changed (its size, date, version count): fetch just that row
        onVersionChanged={(id) => void entriesByIds([id]).then(pages.patch, () => pages.reload())}
        extra={
          <>
            {uploadClashDialog}
            {newVersion.input}
          </>
        }
      />
    </Flex>
  );
}
