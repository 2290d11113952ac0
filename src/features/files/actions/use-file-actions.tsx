/**
 * What each file action does, in two tables: `perform` (one row per menu and toolbar action: open a
 * dialog, ask, download, or make a change) and `changes` (one row per change to files: how it is sent
 * online, with its toast and the cached rows it patches, and how it is kept in the outbox when
 * offline). `apply` is the one place that chooses between the network and the outbox.
 */
import type { CreateTxtResponse, FileEntry, KeepOnCreateTxtResponse } from '../../../../common/api/types';
import type { CreateTxtRequest, KeepOnCreateTxtRequest, MkdirRequest } from '../../../../common/api/endpoints/files';
import { Button } from 'antd';
import { useRef } from 'react';
import { formatSize } from '../../../../common/format/size';
import { currentNetworkEnv } from '../../../lib/client-env';
import { useOnline } from '../../../lib/data/online';
import { confirmDownload, fileSafeCheck, useCheckSwap } from '../../../lib/data/sharing';
import { useFeedback } from '../../../lib/feedback/feedback';
import type { BrowserDialog } from '../browser/BrowserDialogs';
import type { BrowserSource } from '../listing/browser-source';
import type { EntryPages } from '../listing/use-entry-pages';
import type { PickedTarget } from '../dialogs/FolderPickerModal';
import { locationOf } from '../file-locations';
import { copyOrMove, createTxt, keepOnCreateTxt, makeFolder, purgeRecycle, removeFiles, renameFile, restoreFromRecycle, setFavorite, setLocked, type FolderScope } from '../files-api';
import { queueCopyMove, queueCreateTxt, queueFavorite, queueMkdir, queueRemove, queueRename, queueRestore } from '../offline/offline-ops';
import { mayDownload, previewModeOf } from '../preview/preview-mode';
import { errorText } from '../uploads/use-browser-uploads';
import { folderIntoItself } from './conflict-model';
import { startDownload } from '../../../lib/save-blob';
import { downloadFile, downloadZip } from './download-entries';
import { ACTION_PERMISSIONS, type FileAction } from './file-actions';
import { useConflictDecisions, type ConflictDecisions } from './use-conflict-decisions';
import type { DocumentTarget } from '../../../components/document/target';

/** How long a delete's toast offers 撤销. */
const UNDO_SECONDS = 10;

/** One change to files. `offline` absent: it needs the network (the menus disable it offline: OFFLINE_ACTIONS). */
interface Change<A, R = void> {
  online: (args: A) => Promise<R>;
  /** Applied to the cached lists at once and kept in the outbox (offline/offline-ops.ts) until the network is back. */
  offline?: (args: A) => Promise<void>;
}

/** Every change: what it is given, and what the caller reads of the server's answer. */
interface ChangeKinds {
  mkdir: { args: { req: MkdirRequest; scope: FolderScope }; answer: void };
  createTxt: { args: { req: CreateTxtRequest; scope: FolderScope }; answer: CreateTxtResponse };
  keepTxt: { args: KeepOnCreateTxtRequest; answer: KeepOnCreateTxtResponse };
  rename: { args: { file: FileEntry; name: string }; answer: void };
  copyMove: { args: { op: 'copy' | 'move'; entries: FileEntry[]; target: PickedTarget }; answer: void };
  remove: { args: FileEntry[]; answer: void };
  favorite: { args: { entries: FileEntry[]; on: boolean }; answer: void };
  lock: { args: { entries: FileEntry[]; on: boolean }; answer: void };
  restore: { args: FileEntry[]; answer: void };
  purge: { args: FileEntry[]; answer: void };
  emptyRecycle: { args: void; answer: void };
  swapCheck: { args: FileEntry[]; answer: void };
}
type ChangeOf<K extends keyof ChangeKinds> = Change<ChangeKinds[K]['args'], ChangeKinds[K]['answer']>;

/** What the browser around the actions provides. */
export interface FileActionsHost {
  source: BrowserSource;
  pages: EntryPages<FileEntry>;
  publicSpaceId: string | null;
  permitted: (code: string) => boolean;
  /** Opens a folder of the current source (folder mode). */
  openDir: (id: string) => void;
  navigate: (to: string) => void;
  show: (dialog: BrowserDialog) => void;
  clearSelection: () => void;
  pickNewVersion: (file: FileEntry) => void;
  /** Shows an entry just made in the folder shown: scrolled to and marked, wherever it sorts. */
  reveal: (id: string) => void;
}

export interface FileActions {
  /** Runs a menu or toolbar action on entries; a failure is shown, never thrown. */
  run: (action: FileAction, entries: FileEntry[]) => Promise<void>;
  /** Double click, Enter, the name: open a folder, preview a file (a document at `at`), or offer to download it. */
  open: (file: FileEntry, at?: DocumentTarget) => void;
  // The dialogs' submits: they reject when the server refuses (the dialog stays open).
  mkdir: (req: MkdirRequest, scope: FolderScope) => Promise<void>;
  /** Null when kept in the outbox; else the server's answer (a clash holds the text: keepTxt). */
  createTxt: (req: CreateTxtRequest, scope: FolderScope) => Promise<CreateTxtResponse | null>;
  keepTxt: (req: KeepOnCreateTxtRequest) => Promise<KeepOnCreateTxtResponse | null>;
  rename: (file: FileEntry, name: string) => Promise<void>;
  copyMove: (op: 'copy' | 'move', entries: FileEntry[], target: PickedTarget) => Promise<void>;
  emptyRecycleBin: () => void;
  /** Props of the <ConflictModal> that asks about clashes of a copy, move or restore. */
  conflictModal: ConflictDecisions['modal'];
}

export function useFileActions(host: FileActionsHost): FileActions {
  const { source, pages, permitted, show, clearSelection } = host;
  const { message, modal } = useFeedback();
  const online = useOnline();
  const checkSwapAndList = useCheckSwap();
  const { withDecisions, modal: conflictModal } = useConflictDecisions();
  const side = currentNetworkEnv();
  const ids = (entries: FileEntry[]) => entries.map((e) => e.id);
  const undoSerial = useRef(0);
  const skippedText = (n: number) => (n ? `，跳过 ${n} 项` : '');

  const changes: { [K in keyof ChangeKinds]: ChangeOf<K> } = {
    mkdir: {
      online: async ({ req }) => {
        const folder = await makeFolder(req);
        message.success('文件夹已创建');
        pages.reload();
        host.reveal(folder.id);
      },
      offline: async ({ req, scope }) => host.reveal(await queueMkdir(req, scope)),
    },
    createTxt: {
      online: async ({ req }) => {
        const answer = await createTxt(req);
        if (answer.status === 'created') {
          message.success('文本文件已创建');
          pages.reload();
          host.reveal(answer.file.id);
        }
        return answer;
      },
      offline: async ({ req, scope }) => host.reveal(await queueCreateTxt(req, scope)),
    },
    keepTxt: {
      online: async (req) => {
        const answer = await keepOnCreateTxt(req);
        if (answer.status === 'created') {
          message.success(req.decision === 'newVersion' ? '已保存为新版本' : `已保存为「${answer.file.name}」`);
          pages.reload();
          host.reveal(answer.file.id);
        }
        return answer;
      },
    },
    rename: {
      online: async ({ file, name }) => {
        const renamed = await renameFile({ id: file.id, name });
        message.success('已重命名');
        pages.patch([renamed]);
      },
      offline: ({ file, name }) => queueRename(file, name),
    },
    copyMove: {
      online: async ({ op, entries, target }) => {
        const req = { ids: ids(entries), targetParentId: target.parentId, targetCategory: target.scope.category, targetSpaceId: target.scope.spaceId };
        const result = await withDecisions(entries, (decisions) => copyOrMove(op, { ...req, decisions }));
        if (!result) return;
        message.success(`${op === 'copy' ? '已复制' : '已移动'} ${result.items.length} 项${skippedText(result.skipped.length)}`);
        clearSelection();
        pages.reload();
      },
      offline: async ({ op, entries, target }) => {
        await queueCopyMove(op, entries, { ids: ids(entries), targetParentId: target.parentId, targetCategory: target.scope.category, targetSpaceId: target.scope.spaceId });
        clearSelection();
      },
    },
    remove: {
      online: async (entries) => {
        const r = await removeFiles(ids(entries));
        pages.drop(ids(entries));
        clearSelection();
        offerUndo(entries, `已移入回收站：${r.removed} 项`);
      },
      offline: async (entries) => {
        await queueRemove(entries);
        clearSelection();
        offerUndo(entries, `已删除 ${entries.length} 项，联网后同步`);
      },
    },
    favorite: {
      online: async ({ entries, on }) => {
        const r = await setFavorite(ids(entries), on);
        message.success(on ? '已收藏' : '已取消收藏');
        if (source.mode === 'favorite' && !on) pages.drop(ids(entries));
        else pages.patch(r.items);
      },
      offline: ({ entries, on }) => queueFavorite(entries, on),
    },
    lock: {
      online: async ({ entries, on }) => {
        const r = await setLocked(ids(entries), on);
        message.success(on ? '已锁定' : '已解锁');
        pages.patch(r.items);
      },
    },
    restore: {
      online: async (entries) => {
        const r = await withDecisions(entries, (decisions) => restoreFromRecycle(ids(entries), decisions));
        if (!r) return;
        message.success(`已还原 ${r.items.length} 项${skippedText(r.skipped.length)}`);
        clearSelection();
        pages.reload();
      },
      // Only 撤销 of a delete reaches this offline (the recycle bin's 还原 needs the network): kept
      // behind the queued delete, so the two replay in order.
      offline: (entries) => queueRestore(entries),
    },
    purge: {
      online: async (entries) => {
        const r = await purgeRecycle({ ids: ids(entries) });
        message.success(`已彻底删除 ${r.purged} 项`);
        pages.drop(ids(entries));
        clearSelection();
      },
    },
    emptyRecycle: {
      online: async () => {
        const r = await purgeRecycle({ all: true });
        message.success(`已彻底删除 ${r.purged} 项`);
        pages.reload();
      },
    },
    swapCheck: {
      online: async (entries) => {
        const r = await checkSwapAndList(ids(entries));
        const failedItems = r.results.filter((x) => !x.passed);
        if (failedItems.length === 0) message.success(`已通过交换检查：${r.results.length} 个文件，可在另一网络中使用`);
        else modal.warning({ title: `${failedItems.length} 个文件被拦截`, content: failedItems.map((x) => `${x.name}：${x.reason}`).join('\n') });
        pages.reload();
      },
    },
  };

  /** The one choice between the network and the outbox. Undefined = kept in the outbox. */
  async function apply<K extends keyof ChangeKinds>(kind: K, args: ChangeKinds[K]['args']): Promise<ChangeKinds[K]['answer'] | undefined> {
    const change: ChangeOf<K> = changes[kind];
    if (online || !change.offline) return change.online(args);
    await change.offline(args);
    void message.info('当前离线：修改已保存在本机，联网后自动同步');
    return undefined;
  }

  /**
   * The toast after a delete, with 撤销 for UNDO_SECONDS (issue 44): brings the entries back from the
   * recycle bin (or, offline, queues their restore behind the queued delete).
   */
  function offerUndo(entries: FileEntry[], text: string): void {
    const key = `undo-delete-${++undoSerial.current}`;
    const undo = () => {
      message.destroy(key);
      apply('restore', entries).catch((e: unknown) => {
        const failed = errorText(e, '撤销失败');
        if (failed) message.error(failed);
      });
    };
    void message.open({
      key,
      type: 'success',
      duration: UNDO_SECONDS,
      content: (
        <span data-testid="undo-delete-toast">
          {text}
          <Button type="link" size="small" onClick={undo} data-testid="undo-delete" style={{ paddingInline: 8 }}>
            撤销
          </Button>
        </span>
      ),
    });
  }

  const confirmThen = (title: string, content: string, okText: string, testId: string, onOk: () => Promise<unknown>) =>
    modal.confirm({ title, content, okText, cancelText: '取消', okButtonProps: { danger: true, ...({ 'data-testid': testId } as Record<string, string>) }, onOk });

  function download(file: FileEntry | undefined): void {
    if (!file) return;
    if (file.exchange?.state === 'intercepted' && file.exchange.side === side) {
      // A flagged exchange-area file: the user confirms (keepOnDownload) before it downloads.
      modal.confirm({
        title: '该文件已被拦截',
        content: `拦截原因：${file.exchange.reason ?? '未通过交换检查'}。确认仍要下载吗？下载将被记录。`,
        okText: '确认下载',
        cancelText: '取消',
        okButtonProps: { ...({ 'data-testid': 'confirm-flagged-download' } as Record<string, string>) },
        onOk: async () => {
          const { url } = await confirmDownload(file.id);
          startDownload(url, { name: file.name });
        },
      });
      return;
    }
    downloadFile(file);
    // The browser's own download list shows it from here on.
    message.info('已开始下载');
  }

  /**
   * 安全预检: fileSafe/check judges the files (a folder's files too) by the exchange rules and records
   * nothing; the answer is shown file by file, so the person can fix a name or content before
   * submitting the exchange check, whose interceptions are recorded.
   */
  async function safeCheck(entries: FileEntry[]): Promise<void> {
    const { results } = await fileSafeCheck(ids(entries));
    const stopped = results.filter((r) => !r.passed);
    const note = '预检只查看结果，不提交交换、不改变文件。';
    if (results.length === 0) return void message.info('所选文件夹中没有文件');
    if (stopped.length === 0) return void modal.info({ title: `安全预检：${results.length} 个文件均可通过交换检查`, content: note });
    modal.warning({
      title: `安全预检：${stopped.length} 个文件将被拦截`,
      content: (
        <div data-testid="safe-check-result">
          <ul style={{ paddingInlineStart: 20, margin: '0 0 8px', maxHeight: 240, overflow: 'auto' }}>
            {stopped.slice(0, 50).map((r) => (
              <li key={r.id}>
                {r.name}：{r.reason}
              </li>
            ))}
            {stopped.length > 50 && <li>……等 {stopped.length} 个</li>}
          </ul>
          {results.length > stopped.length && <div>其余 {results.length - stopped.length} 个文件可以通过。</div>}
          <div style={{ color: 'rgba(0,0,0,0.45)' }}>{note}</div>
        </div>
      ),
    });
  }

  /** One row per menu action (the record makes a new FileAction name its behaviour here). */
  const perform: Record<FileAction, (entries: FileEntry[]) => void | Promise<unknown>> = {
    open: ([first]) => first && open(first),
    preview: ([first]) => first && show({ kind: 'preview', file: first }),
    download: ([first]) => download(first),
    share: (entries) => show({ kind: 'share', entries }),
    swapCheck: (entries) => apply('swapCheck', entries),
    safeCheck: (entries) => safeCheck(entries),
    zip: (entries) => downloadZip(entries),
    openLocation: ([first]) => first && host.navigate(locationOf(first, host.publicSpaceId)),
    rename: ([first]) => first && show({ kind: 'rename', file: first }),
    move: (entries) => show({ kind: 'pick', op: 'move', entries }),
    copy: (entries) => show({ kind: 'pick', op: 'copy', entries }),
    delete: (entries) =>
      confirmThen(`删除 ${entries.length} 项？`, '删除的文件会移入回收站，可在回收站中还原。', '删除', 'confirm-delete', () => apply('remove', entries)),
    favorite: (entries) => apply('favorite', { entries, on: true }),
    unfavorite: (entries) => apply('favorite', { entries, on: false }),
    lock: (entries) => apply('lock', { entries, on: true }),
    unlock: (entries) => apply('lock', { entries, on: false }),
    uploadVersion: ([first]) => first && host.pickNewVersion(first),
    versions: ([first]) => first && show({ kind: 'versions', file: first }),
    restore: (entries) => apply('restore', entries),
    purge: (entries) => confirmThen(`彻底删除 ${entries.length} 项？`, '彻底删除后无法恢复。', '彻底删除', 'confirm-purge', () => apply('purge', entries)),
  };

  async function run(action: FileAction, entries: FileEntry[]): Promise<void> {
    try {
      await perform[action](entries);
    } catch (e) {
      const text = errorText(e, '操作失败');
      if (text) message.error(text);
    }
  }

  function open(file: FileEntry, at?: DocumentTarget): void {
    if (source.mode === 'recycle') return;
    if (file.isDir) {
      if (source.mode === 'folder') host.openDir(file.id);
      else host.navigate(locationOf(file, host.publicSpaceId, true));
      return;
    }
    if (previewModeOf(file) && permitted(ACTION_PERMISSIONS.preview ?? '')) return show({ kind: 'preview', file, at });
    // Through a preview-only share there is nothing to download: the preview says 该文件类型不支持预览.
    if (!mayDownload(file)) return show({ kind: 'preview', file });
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

  return {
    run,
    open,
    mkdir: async (req, scope) => void (await apply('mkdir', { req, scope })),
    createTxt: async (req, scope) => (await apply('createTxt', { req, scope })) ?? null,
    keepTxt: async (req) => (await apply('keepTxt', req)) ?? null,
    rename: async (file, name) => void (await apply('rename', { file, name })),
    copyMove: async (op, entries, target) => {
      if (folderIntoItself(entries, target.path)) {
        message.error('不能将文件夹移动或复制到其自身或其子文件夹中');
        throw new Error('cycle'); // keeps the picker open
      }
      await apply('copyMove', { op, entries, target });
    },
    emptyRecycleBin: () =>
      modal.confirm({
        title: '清空回收站？',
        content: '回收站中的所有文件将被彻底删除，无法恢复。',
        okText: '清空',
        okButtonProps: { danger: true },
        cancelText: '取消',
        onOk: () => apply('emptyRecycle', undefined),
      }),
    conflictModal,
  };
}
