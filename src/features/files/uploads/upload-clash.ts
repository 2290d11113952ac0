/**
 * Picked files against the target folder, before they are queued: which are refused (a blocked type,
 * no space left), which clash with an entry of the same name, and what one answer of the clash dialog
 * queues. The refused ones are queued all the same (the transfer list shows them intercepted) but are
 * not counted as "加入传输列表".
 */
import type { MultipleFileCheckResult } from '../../../../common/transfer/checks';
import type { EnqueueOptions } from '../../../../common/transfer/engine-api';

export interface Clash<F> {
  file: F;
  /** A new version may be made of the existing entry (not a folder, not another member's file). */
  replaceable: boolean;
}

export interface SortedPick<F> {
  /** No question: queued as they are (refused ones included, see above). */
  plain: F[];
  clashes: Clash<F>[];
  refused: Array<{ file: F; reason: string }>;
}

/** The clash dialog's answers. */
export type ClashChoice = 'newVersion' | 'rename' | 'skip' | 'cancel';

export interface EnqueueGroup<F> {
  files: F[];
  options?: EnqueueOptions;
}

export const REFUSED_REASON = { blockedType: '的类型禁止上传', overQuota: '超出剩余空间' } as const;

/** Sorts the pick by its check results (keyed by the file's index in `files`, as a string). */
export function sortPick<F>(files: F[], results: ReadonlyMap<string, MultipleFileCheckResult>): SortedPick<F> {
  const sorted: SortedPick<F> = { plain: [], clashes: [], refused: [] };
  files.forEach((file, i) => {
    const r = results.get(String(i));
    if (r?.blockedType || r?.overQuota) {
      sorted.plain.push(file);
      sorted.refused.push({ file, reason: r.blockedType ? REFUSED_REASON.blockedType : REFUSED_REASON.overQuota });
    } else if (r?.exists && !r.locked) {
      sorted.clashes.push({ file, replaceable: r.replaceable });
    } else {
      // A locked file is held by the engine with its reason: only its owner can lift the lock.
      sorted.plain.push(file);
    }
  });
  return sorted;
}

/**
 * What to queue for an answer: the files without a question as they are, the clashes with the chosen
 * policy. A new version cannot be made of a folder or of another member's file: those keep both.
 */
export function groupsFor<F>(pick: SortedPick<F>, choice: ClashChoice): EnqueueGroup<F>[] {
  if (choice === 'cancel') return [];
  const groups: EnqueueGroup<F>[] = [{ files: pick.plain }];
  if (choice === 'rename') groups.push({ files: pick.clashes.map((c) => c.file), options: { onConflict: 'rename' } });
  if (choice === 'newVersion') {
    groups.push({ files: pick.clashes.filter((c) => c.replaceable).map((c) => c.file), options: { onConflict: 'newVersion' } });
    groups.push({ files: pick.clashes.filter((c) => !c.replaceable).map((c) => c.file), options: { onConflict: 'rename' } });
  }
  return groups.filter((g) => g.files.length > 0);
}

/** How many of the queued files will really be uploaded (the refused ones are not). */
export function acceptedCount<F>(pick: SortedPick<F>, choice: ClashChoice): number {
  if (choice === 'cancel') return 0;
  const clashes = choice === 'skip' ? 0 : pick.clashes.length;
  return pick.plain.length - pick.refused.length + clashes;
}

/** 「a.exe」「b.exe」等 5 个文件 — names for a toast, the first few quoted. */
export function namesText(names: string[], shown = 3): string {
  const quoted = names.slice(0, shown).map((n) => `「${n}」`).join('');
  return names.length > shown ? `${quoted}等 ${names.length} 个文件` : quoted;
}

/** The toast after queueing, or null when nothing was. */
export function queuedText(accepted: number): string | null {
  return accepted > 0 ? `已加入传输列表：${accepted} 个文件` : null;
}

/** The warning about refused files: grouped by reason. */
export function refusedText(refused: Array<{ name: string; reason: string }>): string | null {
  if (refused.length === 0) return null;
  const byReason = new Map<string, string[]>();
  for (const r of refused) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), r.name]);
  const parts = [...byReason].map(([reason, names]) => `${namesText(names)}${reason}`);
  return `${parts.join('；')}，未加入传输列表。`;
}
