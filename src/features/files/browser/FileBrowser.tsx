import { Flex, type MenuProps } from 'antd';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import type { FileEntry } from '../../../../common/api/types';
import { formatSize } from '../../../../common/format/size';
import { isPermitted, usePagePermissionCodes } from '../../../lib/button-permissions';
import { useCurrentUser } from '../../../lib/current-user';
import { useOnline } from '../../../lib/data/online';
import { fileListVersionAtom } from '../../../lib/file-events';
import { listingFor, searchUrl, type BrowserSource } from './browser-source';
import { folderIntoItself } from '../actions/conflict-model';
import { clickLink, downloadFile, downloadZip } from '../actions/download-entries';
import { confirmDownload, useCheckSwap } from '../../../lib/data/sharing';
import { currentNetworkEnv } from '../../../lib/client-env';
import { SharerFilter } from './SharerFilter';
import { DropOverlay } from '../uploads/DropOverlay';
import { ACTION_LABELS, ACTION_PERMISSIONS, actionsFor, PAGE_PERMISSIONS, type FileAction, type OfferedAction } from '../actions/file-actions';
import { locationOf } from '../file-locations';
import { FileBreadcrumb, useFolderName } from './FileBreadcrumb';
import { FileGrid } from './FileGrid';
import { FileTable } from './FileTable';
import { FileSearchTools, FileToolbar } from './FileToolbar';
import { copyOrMove, entriesByIds, makeFolder, purgeRecycle, removeFiles, renameFile, restoreFromRecycle, setFavorite, setLocked } from '../files-api';
import { queueFavorite, queueMkdir, queueRemove, queueRename, queueCopyMove } from '../offline/offline-ops';
import { OutboxPanel } from '../offline/OutboxPanel';
import { mayDownload, previewModeOf } from '../preview/preview-mode';
import { DEFAULT_SORT, type SortState } from './sort-state';
import { errorText, useBrowserUploads } from '../uploads/use-browser-uploads';
import { useConflictDecisions } from '../actions/use-conflict-decisions';
import { useDeepLinkPreview } from './use-deep-link-preview';
import { useCurrentDir } from './use-current-dir';
import type { ViewLayout } from './keyboard-nav';
import { fileShortcuts } from './file-shortcuts';
import { useListSelection } from './use-list-selection';
import { useRevealedEntry } from './use-revealed-entry';
import { isFileView, viewKeyOf, type FileView } from './file-view';
import { useStoredState } from '../../../lib/use-stored-state';
import { useFileBrowserParts } from './browser-slots';
import { useEntryPages } from './use-entry-pages';
import { useNewVersionUpload } from '../uploads/use-new-version-upload';
import { usePickerRoots } from '../dialogs/use-picker-roots';
import { usePublicSpace } from '../space-queries';
import { lazyWhenOpen } from '../../../components/lazy-when-open';
import { useFeedback } from '../../../lib/feedback/feedback';
import { usePhone } from '../../../lib/use-phone';
import type { PickedTarget } from '../dialogs/FolderPickerModal';

// Dialogs load when first opened (components/lazy-when-open): the file page shows sooner.
const VersionsDrawer = lazyWhenOpen(() => import('../dialogs/VersionsDrawer').then((m) => m.VersionsDrawer), (p) => p.file !== null);
const PreviewModal = lazyWhenOpen(() => import('../preview/PreviewModal').then((m) => m.PreviewModal), (p) => p.file !== null);
const TextFileModal = lazyWhenOpen(() => import('../dialogs/TextFileModal').then((m) => m.TextFileModal), (p) => p.open);
const NameModal = lazyWhenOpen(() => import('../dialogs/NameModal').then((m) => m.NameModal), (p) => p.open);
const ConflictModal = lazyWhenOpen(() => import('../dialogs/ConflictModal').then((m) => m.ConflictModal), (p) => p.items !== null);
const FolderPickerModal = lazyWhenOpen(() => import('../dialogs/FolderPickerModal').then((m) => m.FolderPickerModal), (p) => p.open);


type Dialog =
  | { kind: 'mkdir' }
  | { kind: 'txt' }
  | { kind: 'rename'; file: FileEntry }
  | { kind: 'pick'; op: 'copy' | 'move'; entries: FileEntry[] }
  | { kind: 'preview'; file: FileEntry }
  | { kind: 'versions'; file: FileEntry }
  | { kind: 'share'; entries: FileEntry[] }
  | null;

/**
 * The one file browser every file page uses (configured by a BrowserSource): breadcrumb and toolbar,
 * the virtualised table with multi-select and a context menu, and the dialogs of every operation.
 */
export function FileBrowser({ source, title }: { source: BrowserSource; title: string }) {
  const { message, modal } = useFeedback();
  const [, navigate] = useLocation();
  const [dir, openDir] = useCurrentDir();
  const version = useAtomValue(fileListVersionAtom);
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
  const [dialog, setDialog] = useState<Dialog>(null);
  const { withDecisions, modal: conflictModal } = useConflictDecisions();
  const newVersion = useNewVersionUpload('new-version-input');

  const sourceKey = JSON.stringify(source);
  const folderDir = source.mode === 'folder' ? dir : null;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the source is compared by value (sourceKey)
  const listing = useMemo(() => listingFor(source, folderDir, sort, { sharerId }), [sourceKey, folderDir, sort, sharerId]);
  const pages = useEntryPages<FileEntry>(listing, version);
  const pickerRoots = usePickerRoots(source, dialog?.kind === 'pick');
  const list = useListSelection(pages.items, openEntry);
  const { selectedIds, setSelectedIds, reset: resetSelection } = list;

  useEffect(() => resetSelection(), [listing, resetSelection]);
  useRevealedEntry(pages, folderDir, list.focus);
  const publicSpaceId = usePublicSpace(source.mode !== 'folder').data?.id ?? null;

  const selection = useMemo(() => {
    const chosen = new Set(selectedIds);
    return pages.items.filter((e) => chosen.has(e.id));
  }, [pages.items, selectedIds]);

  const space = source.mode === 'folder' ? source.space : undefined;
  const online = useOnline();
  const checkSwapAndList = useCheckSwap();
  const phone = usePhone();
  const ctx = { mode: source.mode, callerId: user?.id ?? null, isAdmin: user?.role === 'admin', spaceRole: space ? space.role : undefined, offline: !online, side: currentNetworkEnv() };
  /** Offline, a change is applied to the cached lists and kept in the outbox (待同步) until the network is back. */
  const queued = (): void => void message.info('当前离线：修改已保存在本机，联网后自动同步');
  // 分享 is another feature's dialog, handed in by the app layer (browser-slots.tsx).
  const { ShareDialog } = useFileBrowserParts();
  const offered = actionsFor(selection, ctx).filter((o) => {
    if (o.action === 'share' && !ShareDialog) return false;
    const code = ACTION_PERMISSIONS[o.action];
    return code === null || permitted(code);
  });

  /** Where writes at the current folder go (uploads need a folder id at a space's top level); nothing is created in 共享文件. */
  const writeScope = source.mode === 'folder' && !sharedView ? source.scope : null;
  const uploadParent = dir ?? space?.rootId ?? null;

  // ---- operations --------------------------------------------------------------------------------

  const failed = (e: unknown, fallback: string): void => {
    const text = errorText(e, fallback);
    if (text) message.error(text);
  };

  async function transfer(op: 'copy' | 'move', entries: FileEntry[], target: PickedTarget): Promise<void> {
    const cycle = folderIntoItself(entries, target.path);
    if (cycle) {
      message.error('不能将文件夹移动或复制到其自身或其子文件夹中');
      throw new Error('cycle');
    }
    const ids = entries.map((e) => e.id);
    if (!online) {
      await queueCopyMove(op, entries, { ids, targetParentId: target.parentId, targetCategory: target.scope.category, targetSpaceId: target.scope.spaceId });
      setSelectedIds([]);
      return queued();
    }
    const result = await withDecisions(entries, (decisions) =>
      copyOrMove(op, { ids, targetParentId: target.parentId, targetCategory: target.scope.category, targetSpaceId: target.scope.spaceId, decisions }),
    );
    if (!result) return;
    const placed = result.items.length;
    message.success(`${op === 'copy' ? '已复制' : '已移动'} ${placed} 项${result.skipped.length ? `，跳过 ${result.skipped.length} 项` : ''}`);
    setSelectedIds([]);
    pages.reload();
  }

  async function run(action: FileAction, entries: FileEntry[]): Promise<void> {
    const ids = entries.map((e) => e.id);
    const first = entries[0];
    try {
      switch (action) {
        case 'open':
          if (first) openEntry(first);
          return;
        case 'preview':
          if (first) setDialog({ kind: 'preview', file: first });
          return;
        case 'download':
          if (first?.exchange?.state === 'intercepted' && first.exchange.side === ctx.side) {
            // A flagged exchange-area file: the user confirms (keepOnDownload) before it downloads.
            modal.confirm({
              title: '该文件已被拦截',
              content: `拦截原因：${first.exchange.reason ?? '未通过交换检查'}。确认仍要下载吗？下载将被记录。`,
              okText: '确认下载',
              cancelText: '取消',
              okButtonProps: { ...({ 'data-testid': 'confirm-flagged-download' } as Record<string, string>) },
              onOk: async () => {
                const { url } = await confirmDownload(first.id);
                clickLink(url, first.name);
              },
            });
            return;
          }
          if (first) {
            downloadFile(first);
            // The browser's own download list shows it from here on.
            message.info('已开始下载');
          }
          return;
        case 'share':
          setDialog({ kind: 'share', entries });
          return;
        case 'swapCheck': {
          const r = await checkSwapAndList(ids);
          const failedItems = r.results.filter((x) => !x.passed);
          if (failedItems.length === 0) message.success(`已通过交换检查：${r.results.length} 个文件，可在另一网络中使用`);
          else modal.warning({ title: `${failedItems.length} 个文件被拦截`, content: failedItems.map((x) => `${x.name}：${x.reason}`).join('\n') });
          pages.reload();
          return;
        }
        case 'zip':
          downloadZip(entries);
          return;
        case 'openLocation':
          if (first) navigate(locationOf(first, publicSpaceId));
          return;
        case 'rename':
          if (first) setDialog({ kind: 'rename', file: first });
          return;
        case 'move':
        case 'copy':
          setDialog({ kind: 'pick', op: action, entries });
          return;
        case 'delete':
          modal.confirm({
            title: `删除 ${entries.length} 项？`,
            content: '删除的文件会移入回收站，可在回收站中还原。',
            okText: '删除',
            okButtonProps: { danger: true, ...({ 'data-testid': 'confirm-delete' } as Record<string, string>) },
            cancelText: '取消',
            onOk: async () => {
              if (!online) return void (await queueRemove(entries), setSelectedIds([]), queued());
              const r = await removeFiles(ids);
              message.success(`已移入回收站：${r.removed} 项`);
              pages.drop(ids);
              setSelectedIds([]);
            },
          });
          return;
        case 'favorite':
        case 'unfavorite': {
          if (!online) return void (await queueFavorite(entries, action === 'favorite'), queued());
          const r = await setFavorite(ids, action === 'favorite');
          message.success(action === 'favorite' ? '已收藏' : '已取消收藏');
          if (source.mode === 'favorite' && action === 'unfavorite') pages.drop(ids);
          else pages.patch(r.items);
          return;
        }
        case 'lock':
        case 'unlock': {
          const r = await setLocked(ids, action === 'lock');
          message.success(action === 'lock' ? '已锁定' : '已解锁');
          pages.patch(r.items);
          return;
        }
        case 'uploadVersion':
          if (first) newVersion.pick(first);
          return;
        case 'versions':
          if (first) setDialog({ kind: 'versions', file: first });
          return;
        case 'restore': {
          const r = await withDecisions(entries, (decisions) => restoreFromRecycle(ids, decisions));
          if (!r) return;
          message.success(`已还原 ${r.items.length} 项${r.skipped.length ? `，跳过 ${r.skipped.length} 项` : ''}`);
          setSelectedIds([]);
          pages.reload();
          return;
        }
        case 'purge':
          modal.confirm({
            title: `彻底删除 ${entries.length} 项？`,
            content: '彻底删除后无法恢复。',
            okText: '彻底删除',
            okButtonProps: { danger: true, ...({ 'data-testid': 'confirm-purge' } as Record<string, string>) },
            cancelText: '取消',
            onOk: async () => {
              const r = await purgeRecycle({ ids });
              message.success(`已彻底删除 ${r.purged} 项`);
              pages.drop(ids);
              setSelectedIds([]);
            },
          });
          return;
      }
    } catch (e) {
      failed(e, '操作失败');
    }
  }

  function openEntry(file: FileEntry): void {
    if (source.mode === 'recycle') return;
    if (file.isDir) {
      if (source.mode === 'folder') openDir(file.id);
      else navigate(locationOf(file, publicSpaceId, true));
      return;
    }
    if (previewModeOf(file) && permitted(ACTION_PERMISSIONS.preview ?? '')) return setDialog({ kind: 'preview', file });
    // Through a preview-only share there is nothing to download: the preview says 该文件类型不支持预览.
    if (!mayDownload(file)) return setDialog({ kind: 'preview', file });
    if (!permitted(ACTION_PERMISSIONS.download ?? '')) return;
    // Opening a kind the browser cannot show: asked first, never a surprise download.
    modal.confirm({
      title: '无法在线预览',
      content: `「${file.name}」不支持在线预览（${formatSize(file.size)}），是否下载到本机查看？`,
      okText: '下载',
      cancelText: '取消',
      okButtonProps: { ...({ 'data-testid': 'confirm-download' } as Record<string, string>) },
      onOk: () => void run('download', [file]),
    });
  }

  // A file named by the desktop shell (clouddrive:// link): its preview (or its download), once the
  // button permissions that gate both are known.
  const [linked, setLinked] = useState<FileEntry | null>(null);
  useDeepLinkPreview(setLinked, () => void message.error('要打开的文件不存在或无权访问'));
  const permissionsKnown = permissionCodes !== null;
  useEffect(() => {
    if (!linked || !permissionsKnown) return;
    setLinked(null);
    openEntry(linked);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- openEntry reads the current props; run once per linked file
  }, [linked, permissionsKnown]);

  function emptyRecycleBin(): void {
    modal.confirm({
      title: '清空回收站？',
      content: '回收站中的所有文件将被彻底删除，无法恢复。',
      okText: '清空',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        const r = await purgeRecycle({ all: true });
        message.success(`已彻底删除 ${r.purged} 项`);
        pages.reload();
      },
    });
  }

  // ---- uploads -----------------------------------------------------------------------------------

  const canUpload = writeScope !== null && permitted(PAGE_PERMISSIONS.upload);
  const folderName = useFolderName(source.mode === 'folder' ? dir : null, source.mode === 'folder' ? source.rootName : title);
  const { upload, uploadFolder, drop, dialog: uploadClashDialog } = useBrowserUploads(canUpload && writeScope ? { parentId: uploadParent, category: writeScope.category } : null, folderName);

  // ---- menus -------------------------------------------------------------------------------------

  const menuItems = (list: OfferedAction[]): MenuProps['items'] =>
    list.map((o) => ({
      key: o.action,
      label: o.disabledReason ? `${ACTION_LABELS[o.action]}（${o.disabledReason}）` : ACTION_LABELS[o.action],
      disabled: o.disabledReason !== null,
      danger: o.action === 'delete' || o.action === 'purge',
      'data-testid': `menu-${o.action}`,
    }));

  const downloadOne = permitted(ACTION_PERMISSIONS.download ?? '') ? (file: FileEntry) => void run('download', [file]) : null;

  const contextMenu: MenuProps = {
    items: menuItems(offered),
    onClick: ({ key }) => void run(key as FileAction, selection),
  };

  const onShortcut = fileShortcuts({
    list,
    layout,
    recycle: source.mode === 'recycle',
    open: openEntry,
    act: (action) => {
      const usable = offered.find((o) => o.action === action && o.disabledReason === null);
      if (!usable) return false;
      void run(action, selection);
      return true;
    },
  });

  // The preview steps through the folder's previewable files (those loaded so far).
  const previewable = useMemo(() => (dialog?.kind === 'preview' ? pages.items.filter((e) => previewModeOf(e) !== null) : []), [dialog, pages.items]);
  const excluded = useMemo(() => new Set(dialog?.kind === 'pick' ? dialog.entries.filter((e) => e.isDir).map((e) => e.id) : []), [dialog]);
  const versionsFile = dialog?.kind === 'versions' ? dialog.file : null;

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
          <FileSearchTools
            source={source}
            sort={source.mode === 'folder' && permitted(PAGE_PERMISSIONS.sort) ? sort : null}
            onSort={setSort}
            view={view}
            onView={setView}
            onSearch={(keyword) => navigate(searchUrl(source, keyword))}
          />
        </Flex>
      </Flex>
      {sharedView && dir === null && <SharerFilter value={sharerId} onChange={setSharerId} />}
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
        onAction={(action) => void run(action, selection)}
        onEmptyRecycle={emptyRecycleBin}
        onClearSelection={() => setSelectedIds([])}
      />
      {view === 'grid' ? (
        <FileGrid
          mode={source.mode}
          pages={pages}
          selectedIds={selectedIds}
          cursorId={list.cursorId}
          handlers={list.handlers}
          contextMenu={contextMenu}
          onDownload={downloadOne}
          layoutRef={layout}
        />
      ) : (
        <FileTable
          mode={source.mode}
          pages={pages}
          selectedIds={selectedIds}
          cursorId={list.cursorId}
          handlers={list.handlers}
          sort={source.mode === 'folder' && permitted(PAGE_PERMISSIONS.sort) ? sort : null}
          onSort={setSort}
          contextMenu={contextMenu}
          onDownload={downloadOne}
          layoutRef={layout}
          showSharer={sharedView && dir === null}
        />
      )}
      {writeScope && (
        <>
          <NameModal
            open={dialog?.kind === 'mkdir'}
            title="新建文件夹"
            initialName=""
            inputTestId="mkdir-name-input"
            onClose={() => setDialog(null)}
            onSubmit={async (name) => {
              const req = { parentId: dir, category: writeScope.category, spaceId: writeScope.spaceId, name };
              if (!online) return void (await queueMkdir(req, writeScope), queued());
              await makeFolder(req);
              message.success('文件夹已创建');
              pages.reload();
            }}
          />
          <TextFileModal open={dialog?.kind === 'txt'} scope={writeScope} parentId={dir} offline={!online} onClose={() => setDialog(null)} onCreated={() => pages.reload()} onQueued={queued} />
        </>
      )}
      <NameModal
        open={dialog?.kind === 'rename'}
        title="重命名"
        initialName={dialog?.kind === 'rename' ? dialog.file.name : ''}
        inputTestId="rename-name-input"
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return;
          if (!online) return void (await queueRename(dialog.file, name), queued());
          const renamed = await renameFile({ id: dialog.file.id, name });
          message.success('已重命名');
          pages.patch([renamed]);
        }}
      />
      <FolderPickerModal
        open={dialog?.kind === 'pick'}
        title={dialog?.kind === 'pick' ? `${dialog.op === 'copy' ? '复制' : '移动'} ${dialog.entries.length} 项到` : ''}
        roots={pickerRoots}
        excludedIds={excluded}
        onClose={() => setDialog(null)}
        onPick={(target) => (dialog?.kind === 'pick' ? transfer(dialog.op, dialog.entries, target) : Promise.resolve())}
      />
      <ConflictModal {...conflictModal} />
      {uploadClashDialog}
      {newVersion.input}
      <PreviewModal file={dialog?.kind === 'preview' ? dialog.file : null} siblings={previewable} onNavigate={(file) => setDialog({ kind: 'preview', file })} onClose={() => setDialog(null)} />
      {ShareDialog && <ShareDialog entries={dialog?.kind === 'share' ? dialog.entries : null} onClose={() => setDialog(null)} />}
      <VersionsDrawer
        file={versionsFile}
        canChange={versionsFile !== null && !actionsFor([versionsFile], ctx).some((o) => o.action === 'uploadVersion' && o.disabledReason)}
        onClose={() => setDialog(null)}
        onChanged={(id) => {
          // one row changed (its size, date, version count): fetch just that row
          entriesByIds([id]).then(pages.patch, () => pages.reload());
        }}
      />
    </Flex>
  );
}
