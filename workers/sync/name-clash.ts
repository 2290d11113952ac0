/**
 * Two local names the cloud takes for one (docs/sync.md, "Names"): `A.txt` and `a.txt` on a
 * case-sensitive disk (Linux), or `Café.txt` typed on macOS (NFD) next to the same name in NFC. The
 * server compares names case-insensitively in NFC, so only one of them can keep its name there. As
 * Dropbox does ("(Case Conflict)"), both are kept: one keeps its name, the other is renamed on this
 * disk with a visible suffix — `a（大小写冲突）.txt`, `Café（编码冲突）.txt` — and then syncs as any file.
 *
 * Which one keeps its name is decided from what both laptops can see, so every pass (and every
 * laptop) decides alike: the file the journal synced before (same file id), else the one spelled as
 * the cloud spells it, else the one already in NFC, else the first in code-point order (`A.txt`
 * before `a.txt`). The new name's key is one no entry holds, so it never clashes again: no pass
 * renames the same file twice.
 */
import { NAME_MAX_LENGTH } from '../../common/constants';
import type { JournalEntry, LocalEntry, RemoteEntry } from './model';
import { baseName } from './names';

export type ClashKind = 'case' | 'encoding';

export const CLASH_MARK: Record<ClashKind, string> = { case: '大小写冲突', encoding: '编码冲突' };

/** Case, when the names differ by more than their Unicode form; encoding (NFC/NFD) otherwise. */
export function clashKind(a: string, b: string): ClashKind {
  return a.normalize('NFC') === b.normalize('NFC') ? 'encoding' : 'case';
}

/**
 * Of entries sharing one key, the one that keeps its name (see above). `j` and `r` are the
 * journal row and the cloud entry at that key, if any.
 */
export function keeperOf(entries: readonly LocalEntry[], j: JournalEntry | undefined, r: RemoteEntry | undefined): LocalEntry {
  const rank = (e: LocalEntry): number => {
    if (j && j.isDir === e.isDir && j.fileId === e.fileId) return 0;
    if (r && r.isDir === e.isDir && baseName(r.path) === baseName(e.path)) return 1;
    if (j && baseName(j.path) === baseName(e.path)) return 2;
    if (baseName(e.path) === baseName(e.path).normalize('NFC')) return 3;
    return 4;
  };
  let best = entries[0]!;
  for (const e of entries.slice(1)) {
    const d = rank(e) - rank(best);
    if (d < 0 || (d === 0 && e.path < best.path)) best = e;
  }
  return best;
}

/** Splits `报告.docx` into ['报告', '.docx']; a leading dot (`.env`) or a folder has no extension. */
function splitExtension(name: string, isDir: boolean): [string, string] {
  const dot = name.lastIndexOf('.');
  if (isDir || dot <= 0) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

const utf8 = new TextEncoder();
const utf8Length = (s: string): number => utf8.encode(s).length;

/**
 * `报告（大小写冲突）.docx`, numbered when that is taken (`报告（大小写冲突 2）.docx`); the stem is
 * shortened when the name would outgrow what the server and the disks hold (255 characters, 255 bytes).
 */
export function clashCopyName(name: string, isDir: boolean, kind: ClashKind, taken: (candidate: string) => boolean): string {
  const [stem, ext] = splitExtension(name, isDir);
  for (let n = 1; ; n++) {
    const mark = `（${CLASH_MARK[kind]}${n > 1 ? ` ${n}` : ''}）`;
    let head = stem;
    while (head.length > 0 && (utf8Length(head + mark + ext) > 255 || (head + mark + ext).length > NAME_MAX_LENGTH)) head = [...head].slice(0, -1).join('');
    const candidate = head + mark + ext;
    if (!taken(candidate)) return candidate;
  }
}
