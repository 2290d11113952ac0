/**
 * The name a conflict's losing copy gets: `报告 (冲突副本 张三 2024-05-01 1030).docx`, the account that
 * made the conflicting change and the local time, before the extension. When that name is taken too
 * (two conflicts in one minute), a number follows the time: `… 1030 2).docx`.
 */
const pad = (n: number): string => String(n).padStart(2, '0');

/** `yyyy-MM-dd HHmm` in local time (a file name holds no colon on Windows). */
export function conflictStamp(epochMs: number): string {
  const d = new Date(epochMs);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}${pad(d.getMinutes())}`;
}

/** Splits `报告.docx` into ['报告', '.docx']; a leading dot (`.env`) or a folder has no extension. */
function splitExtension(name: string, isDir: boolean): [string, string] {
  const dot = name.lastIndexOf('.');
  if (isDir || dot <= 0) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

export const CONFLICT_MARK = '冲突副本';
const CONFLICT_RE = new RegExp(` \\(${CONFLICT_MARK} [^()]* \\d{4}-\\d{2}-\\d{2} \\d{4}( \\d+)?\\)(\\.[^.]*)?$`);

export function isConflictCopyName(name: string): boolean {
  return CONFLICT_RE.test(name);
}

/**
 * The conflict copy's name for `name`, the first that `taken` (called with each candidate) refuses.
 * The account is cleaned of characters a file name cannot hold.
 */
export function conflictCopyName(name: string, isDir: boolean, account: string, epochMs: number, taken: (candidate: string) => boolean): string {
  const [stem, ext] = splitExtension(name, isDir);
  const who = account.replace(/[|,/<>*?\\[\]:"()]/g, '_').trim() || '用户';
  const stamp = conflictStamp(epochMs);
  for (let n = 1; ; n++) {
    const candidate = `${stem} (${CONFLICT_MARK} ${who} ${stamp}${n > 1 ? ` ${n}` : ''})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}
