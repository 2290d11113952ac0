import { useRef, useState, type ReactNode } from 'react';
import type { MultipleFileCheckResult } from '../../../../common/transfer/checks';
import type { FolderEntry, UploadTarget } from '../../../../common/transfer/engine-api';
import type { PickedFiles } from '../../../lib/folder-walk';
import { enqueueFolder, enqueueUploads } from '../../../lib/upload-queue';
import { useFileDrop } from './use-file-drop';
import { useFeedback } from '../../../lib/feedback/feedback';
import { checkPickedFiles } from '../files-api';
import { acceptedCount, groupsFor, queuedText, refusedText, sortPick, type ClashChoice, type SortedPick } from './upload-clash';
import { UploadClashDialog, type UploadClashQuestion } from './UploadClashDialog';
import { UploadNameDialog, type UploadNameAnswer, type UploadNameQuestion } from './UploadNameDialog';
import { applyNameChoices, findNameIssues, renamedFile } from './upload-names';

/** Non-API failures (the API client has already shown its own). */
export function errorText(e: unknown, fallback: string): string | null {
  if (e instanceof Error && e.name === 'ApiCallError') return null;
  return e instanceof Error ? e.message : fallback;
}

/**
 * Uploads into the open folder through the transfer engine: picked files, a picked folder, or
 * whatever is dropped on the page. `target` null = this page takes no uploads. Picked files are
 * checked first, before anything is queued, in dialogs the page renders (`dialog`): names the rule
 * refuses (file names, and the folders of a folder upload) are shown with the reason and offered
 * their full-width twins, another name or 跳过 (UploadNameDialog); then a name the folder already
 * has is asked about in a dialog naming the folder. The toast counts only the files that will really
 * be uploaded.
 */
export function useBrowserUploads(target: UploadTarget | null, folderName: string): { upload(files: File[]): Promise<void>; uploadFolder(entries: FolderEntry<File>[]): Promise<void>; drop: ReturnType<typeof useFileDrop>; dialog: ReactNode } {
  const { message } = useFeedback();
  const [question, setQuestion] = useState<UploadClashQuestion | null>(null);
  const answer = useRef<((choice: ClashChoice) => void) | null>(null);
  const [nameQuestion, setNameQuestion] = useState<UploadNameQuestion | null>(null);
  const nameAnswer = useRef<((answer: UploadNameAnswer) => void) | null>(null);
  // Never reached from the toolbar (its pickers exist only where uploads go); said rather than dropped all the same.
  const noTarget = (): void => void message.warning('此处不能上传文件');
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

  /**
   * The pick's paths (lone files' names, or folder entries' relative paths) as they will be queued:
   * unchanged when every name passes; else after the user's answer, null for each path left out.
   * Resolves null when the user cancelled the upload.
   */
  function settleNames(paths: string[]): Promise<Array<string | null> | null> {
    const issues = findNameIssues(paths);
    if (issues.length === 0) return Promise.resolve(paths);
    return new Promise((resolve) => {
      nameAnswer.current = (choices) => resolve(choices && applyNameChoices(paths, issues, choices));
      setNameQuestion({ issues, files: paths.length });
    });
  }

  function onNameAnswer(choices: UploadNameAnswer): void {
    setNameQuestion(null);
    nameAnswer.current?.(choices);
    nameAnswer.current = null;
  }

  async function upload(picked: File[]) {
    if (!target) return noTarget();
    try {
      const named = await settleNames(picked.map((f) => f.name));
      if (!named) return;
      const files = picked.flatMap((file, i) => (named[i] ? [renamedFile(file, named[i])] : []));
      if (files.length === 0) return;
      // Each file's answer, handed to the engine with it: it does not ask the same question again.
      const answers = new Map<File, MultipleFileCheckResult | undefined>();
      const pick = await checkPickedFiles(files, target).then(
        (results) => {
          files.forEach((file, i) => answers.set(file, results.get(String(i))));
          return sortPick(files, results);
        },
        // Check unavailable: queue as they are; the engine checks again and holds a clash for a decision.
        (): SortedPick<File> => ({ plain: files, clashes: [], refused: [] }),
      );
      const choice = await ask(pick);
      for (const group of groupsFor(pick, choice)) {
        const checked = answers.size > 0 ? group.files.map((file) => answers.get(file)) : undefined;
        await enqueueUploads(group.files, target, checked ? { ...group.options, checked } : group.options);
      }
      const queued = queuedText(acceptedCount(pick, choice));
      if (queued) message.success(queued);
      const refused = refusedText(pick.refused.map((r) => ({ name: r.file.name, reason: r.reason })));
      if (refused) message.warning(refused);
    } catch (e) {
      failed(e);
    }
  }

  async function uploadFolder(picked: FolderEntry<File>[]) {
    if (!target) return noTarget();
    try {
      const named = await settleNames(picked.map((e) => e.relativePath));
      if (!named) return;
      const entries = picked.flatMap((entry, i) => {
        const path = named[i];
        return path ? [{ relativePath: path, file: renamedFile(entry.file, path.slice(path.lastIndexOf('/') + 1)) }] : [];
      });
      if (entries.length === 0) return;
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
    if (files.length === 0 && folderEntries.length === 0) {
      message.info('没有可上传的文件（空文件夹不会上传）');
      return;
    }
    // One after the other: each may ask its questions (names, clashes), and a dialog holds one at a time.
    void (async () => {
      if (files.length > 0) await upload(files);
      if (folderEntries.length > 0) await uploadFolder(folderEntries);
    })();
  }

  const drop = useFileDrop(uploadPicked, failed);
  const dialog = (
    <>
      <UploadNameDialog question={nameQuestion} onAnswer={onNameAnswer} />
      <UploadClashDialog question={question} onAnswer={onAnswer} />
    </>
  );
  return { upload, uploadFolder, drop, dialog };
}
