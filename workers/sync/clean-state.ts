/**
 * The idle pass's short cut. When a pass plans nothing, both sides and the journal agree; what that
 * pass saw is kept: the cloud listing's token, and every local entry the journal does not hold (what
 * the pass leaves alone on purpose: ignored names, names the server refuses, case twins, files the
 * tenant's rules hold back, links) with its size, time and id. The next pass compares a fresh scan
 * with the journal and with that: if nothing differs and the listing is unchanged, there is nothing
 * to read, plan or send. One changed time stamp, one new or vanished entry, and the pass does all
 * its work as usual.
 */
import type { JournalEntry } from './model';
import { pathKey } from './names';
import type { ScanResult } from './ports';

export interface CleanState {
  token: string;
  /** Local path → `size:mtime:fileId` (or 'issue' for an entry the scan could not take). */
  leftAlone: Map<string, string>;
}

const signature = (e: { size: number; mtimeMs: number; fileId: string }) => `${e.size}:${e.mtimeMs}:${e.fileId}`;

export function cleanState(token: string, scan: ScanResult, journal: readonly JournalEntry[]): CleanState {
  const agreed = new Set(journal.map((j) => j.key));
  const leftAlone = new Map<string, string>();
  for (const e of scan.entries) if (!agreed.has(pathKey(e.path))) leftAlone.set(e.path, signature(e));
  for (const issue of scan.issues) leftAlone.set(issue.path, 'issue');
  return { token, leftAlone };
}

/** Does this scan show exactly what the clean pass saw (the journal's entries, unchanged, and the rest left alone)? */
export function unchangedSince(clean: CleanState, scan: ScanResult, journal: ReadonlyMap<string, JournalEntry>): boolean {
  if (scan.issues.length + scan.entries.length !== journal.size + clean.leftAlone.size) return false;
  for (const issue of scan.issues) if (clean.leftAlone.get(issue.path) !== 'issue') return false;
  let matched = 0;
  for (const e of scan.entries) {
    const j = journal.get(pathKey(e.path));
    if (!j || (j.path !== e.path && j.path !== e.path.normalize('NFC'))) {
      if (clean.leftAlone.get(e.path) !== signature(e)) return false;
      continue;
    }
    if (j.isDir !== e.isDir) return false;
    if (!e.isDir && !(j.trusted && j.size === e.size && j.mtimeMs === e.mtimeMs && j.fileId === e.fileId)) return false;
    if (e.isDir && j.fileId !== e.fileId) return false;
    matched++;
  }
  return matched === journal.size;
}
