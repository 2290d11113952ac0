import { useMemo, type ReactNode } from 'react';
import type { FileEntry } from '../../../../common/api/types';
import { lazyWhenOpen } from '../../../components/lazy-when-open';
import type { DocumentTarget } from '../../../components/document/target';
import type { FileActions } from '../actions/use-file-actions';
import type { FolderScope } from '../files-api';
import type { PickerRoot } from '../dialogs/FolderPickerModal';
import { previewModeOf } from '../preview/preview-mode';
import { useFileBrowserParts } from './browser-slots';

// Dialogs load when first opened (components/lazy-when-open): the file page shows sooner.
const VersionsDrawer = lazyWhenOpen(() => import('../dialogs/VersionsDrawer').then((m) => m.VersionsDrawer), (p) => p.file !== null);
const PreviewModal = lazyWhenOpen(() => import('../preview/PreviewModal').then((m) => m.PreviewModal), (p) => p.file !== null);
const TextFileModal = lazyWhenOpen(() => import('../dialogs/TextFileModal').then((m) => m.TextFileModal), (p) => p.open);
const NameModal = lazyWhenOpen(() => import('../dialogs/NameModal').then((m) => m.NameModal), (p) => p.open);
const ConflictModal = lazyWhenOpen(() => import('../dialogs/ConflictModal').then((m) => m.ConflictModal), (p) => p.items !== null);
const FolderPickerModal = lazyWhenOpen(() => import('../dialogs/FolderPickerModal').then((m) => m.FolderPickerModal), (p) => p.open);

/** The one dialog of the file browser that is open, if any. */
export type BrowserDialog =
  | { kind: 'mkdir' }
  | { kind: 'txt' }
  | { kind: 'rename'; file: FileEntry }
  | { kind: 'pick'; op: 'copy' | 'move'; entries: FileEntry[] }
  /** `at`: a document opens at this page with this term found (统一搜索's content hits). */
  | { kind: 'preview'; file: FileEntry; at?: DocumentTarget }
  | { kind: 'versions'; file: FileEntry }
  | { kind: 'share'; entries: FileEntry[] }
  | null;

/**
 * Every dialog of the file browser, each submitting through the actions (actions/use-file-actions.tsx),
 * plus the ones other hooks own (the upload clash question, the new-version file input).
 */
export function BrowserDialogs({
  dialog,
  show,
  actions,
  writeScope,
  dir,
  items,
  pickerRoots,
  mayChangeVersions,
  onVersionChanged,
  extra,
}: {
  dialog: BrowserDialog;
  show: (dialog: BrowserDialog) => void;
  actions: FileActions;
  /** Where new folders and text files go; null = nothing is created here. */
  writeScope: FolderScope | null;
  dir: string | null;
  /** The rows loaded so far: the preview steps through their previewable files. */
  items: FileEntry[];
  pickerRoots: PickerRoot[];
  mayChangeVersions: (file: FileEntry) => boolean;
  onVersionChanged: (id: string) => void;
  /** Dialogs and inputs owned by other hooks. */
  extra: ReactNode;
}) {
  const { ShareDialog } = useFileBrowserParts();
  const close = () => show(null);
  const previewable = useMemo(() => (dialog?.kind === 'preview' ? items.filter((e) => previewModeOf(e) !== null) : []), [dialog, items]);
  const excluded = useMemo(() => new Set(dialog?.kind === 'pick' ? dialog.entries.filter((e) => e.isDir).map((e) => e.id) : []), [dialog]);
  const versionsFile = dialog?.kind === 'versions' ? dialog.file : null;

  return (
    <>
      {writeScope && (
        <>
          <NameModal
            open={dialog?.kind === 'mkdir'}
            title="新建文件夹"
            initialName=""
            inputTestId="mkdir-name-input"
            onClose={close}
            onSubmit={(name) => actions.mkdir({ parentId: dir, category: writeScope.category, spaceId: writeScope.spaceId, name }, writeScope)}
          />
          <TextFileModal open={dialog?.kind === 'txt'} scope={writeScope} parentId={dir} create={actions.createTxt} keep={actions.keepTxt} onClose={close} />
        </>
      )}
      <NameModal
        open={dialog?.kind === 'rename'}
        title="重命名"
        initialName={dialog?.kind === 'rename' ? dialog.file.name : ''}
        selectUntil={dialog?.kind === 'rename' ? baseNameLength(dialog.file) : undefined}
        inputTestId="rename-name-input"
        onClose={close}
        onSubmit={async (name) => {
          if (dialog?.kind === 'rename') await actions.rename(dialog.file, name);
        }}
      />
      <FolderPickerModal
        open={dialog?.kind === 'pick'}
        title={dialog?.kind === 'pick' ? `${dialog.op === 'copy' ? '复制' : '移动'} ${dialog.entries.length} 项到` : ''}
        roots={pickerRoots}
        excludedIds={excluded}
        onClose={close}
        onPick={(target) => (dialog?.kind === 'pick' ? actions.copyMove(dialog.op, dialog.entries, target) : Promise.resolve())}
      />
      <ConflictModal {...actions.conflictModal} />
      {extra}
      <PreviewModal file={dialog?.kind === 'preview' ? dialog.file : null} at={dialog?.kind === 'preview' ? dialog.at : undefined} siblings={previewable} onNavigate={(file) => show({ kind: 'preview', file })} onClose={close} />
      {ShareDialog && <ShareDialog entries={dialog?.kind === 'share' ? dialog.entries : null} onClose={close} />}
      <VersionsDrawer file={versionsFile} canChange={versionsFile !== null && mayChangeVersions(versionsFile)} onClose={close} onChanged={onVersionChanged} />
    </>
  );
}

/** 重命名 selects the name without its extension ('报告.final.docx' → '报告.final'); a folder's whole name. */
export function baseNameLength(entry: Pick<FileEntry, 'name' | 'isDir'>): number {
  const dot = entry.name.lastIndexOf('.');
  return entry.isDir || dot <= 0 ? entry.name.length : dot;
}
