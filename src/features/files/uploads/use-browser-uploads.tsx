import { useRef, useState, type ReactNode } from 'react';
import type { FolderEntry, UploadTarget } from '../../../../common/transfer/engine-api';
import type { PickedFiles } from '../../../lib/folder-walk';
import { enqueueFolder, enqueueUploads } from '../../../lib/upload-queue';
import { useFileDrop } from './use-file-drop';
import { useFeedback } from '../../../lib/feedback/feedback';
import { checkPickedFiles } from '../files-api';
import { acceptedCount, groupsFor, queuedText, refusedText, sortPick, type ClashChoice, type SortedPick } from './upload-clash';
import { UploadClashDialog, type UploadClashQuestion } from './UploadClashDialog';

/** Non-API failures (the API client has already shown its own). */
export function errorText(e: unknown, fallback: string): string | null {
  if (e instanceof Error && e.name === 'ApiCallError') return null;
  return e instanceof Error ? e.message : fallback;
}

/**
 * Uploads into the open folder through the transfer engine: picked files, a picked folder, or
 * whatever is dropped on the page. `target` null = this page takes no uploads. Picked files are
 * checked first: a name the folder already has is asked about in a dialog naming the folder
 * (`dialog`, rendered by the page) before anything is queued, and the toast counts only the files
 * that will really be uploaded.
 */
export function useBrowserUploads(target: UploadTarget | null, folderName: string): { upload(files: File[]): Promise<void>; uploadFolder(entries: FolderEntry<File>[]): Promise<void>; drop: ReturnType<typeof useFileDrop>; dialog: ReactNode } {
  const { message } = useFeedback();
  const [question, setQuestion] = useState<UploadClashQuestion | null>(null);
  const answer = useRef<((choice: ClashChoice) => void) | null>(null);
  const failed = (e: unknown): void => {
    const text = errorText(e, '无法开始上传');
    if (text) message.error(text);
  };

  function ask(pick: SortedPick<File>): Promise<ClashChoice> {
    if (pick.clashes.length === 0) return Promise.resolve('rename');
    return new Promise((resolve) => {
      answer.current = resolve;
      setQuestion({ folderName, names: pick.clashes.map((c) => c.file.name), notReplaceable: pick.clashes.filter((c) => !c.replaceable).length });
    });
  }

  function onAnswer(choice: ClashChoice): void {
    setQuestion(null);
    answer.current?.(choice);
    answer.current = null;
  }

  async function upload(files: File[]) {
    if (!target) return;
    try {
      const pick = await checkPickedFiles(files, target).then(
        (results) => sortPick(files, results),
        // Check unavailable: queue as they are; the engine checks again and holds a clash for a decision.
        (): SortedPick<File> => ({ plain: files, clashes: [], refused: [] }),
      );
      const choice = await ask(pick);
      for (const group of groupsFor(pick, choice)) await enqueueUploads(group.files, target, group.options);
      const queued = queuedText(acceptedCount(pick, choice));
      if (queued) message.success(queued);
      const refused = refusedText(pick.refused.map((r) => ({ name: r.file.name, reason: r.reason })));
      if (refused) message.warning(refused);
    } catch (e) {
      failed(e);
    }
  }

  async function uploadFolder(entries: FolderEntry<File>[]) {
    if (!target) return;
    try {
      // Type and space only: the names inside are checked against their own folders by the engine.
      const files = entries.map((e) => e.file);
      const refused = await checkPickedFiles(files, target).then(
        (results) => sortPick(files, results).refused,
        () => [],
      );
      await enqueueFolder(entries, target);
      const queued = queuedText(entries.length - refused.length);
      if (queued) message.success(queued);
      const refusedNote = refusedText(refused.map((r) => ({ name: r.file.name, reason: r.reason })));
      if (refusedNote) message.warning(refusedNote);
    } catch (e) {
      failed(e);
    }
  }

  function uploadPicked({ files, folderEntries }: PickedFiles) {
    if (files.length > 0) void upload(files);
    if (folderEntries.length > 0) void uploadFolder(folderEntries);
    if (files.length === 0 && folderEntries.length === 0) message.info('没有可上传的文件（空文件夹不会上传）');
  }

  const drop = useFileDrop(uploadPicked, failed);
  return { upload, uploadFolder, drop, dialog: <UploadClashDialog question={question} onAnswer={onAnswer} /> };
}
