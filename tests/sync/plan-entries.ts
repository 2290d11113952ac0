/**
 * Hand-made planner inputs shared by the planner tests (planner.test.ts, planner-unreadable.test.ts):
 * entries of both sides, the journal row of an entry agreed on both, and a plan input with defaults.
 */
import type { JournalEntry, LocalEntry, PlanInput, RemoteEntry } from '../../workers/sync/model';
import { createIgnoreMatcher, pathKey } from '../../workers/sync/names';

export const NOW = new Date(2024, 4, 1, 10, 30).getTime();
export const OLD = NOW - 3_600_000;

export const file = (path: string, fp: string, fileId = `ino-${path}`, size = 10, mtimeMs = OLD): LocalEntry => ({ path, isDir: false, size, mtimeMs, fileId, fingerprint: fp });
export const dir = (path: string, fileId = `ino-${path}`): LocalEntry => ({ path, isDir: true, size: 0, mtimeMs: 0, fileId });
export const rfile = (path: string, fp: string, id = `r-${path}`, size = 10): RemoteEntry => ({ path, id, parentId: 'root', isDir: false, size, updatedAt: OLD, fingerprint: fp });
export const rdir = (path: string, id = `r-${path}`): RemoteEntry => ({ path, id, parentId: 'root', isDir: true, size: 0, updatedAt: OLD, fingerprint: null });
/** The journal row of an entry agreed on both sides. */
export const agreed = (l: LocalEntry, r: RemoteEntry): JournalEntry => ({
  key: pathKey(r.path),
  path: r.path,
  isDir: l.isDir,
  size: l.size,
  mtimeMs: l.mtimeMs,
  fileId: l.fileId,
  fingerprint: r.fingerprint,
  remoteId: r.id,
  trusted: true,
});

/** A two-way plan input at NOW with nothing on either side, `over` applied. */
export function planInput(over: Partial<PlanInput>): PlanInput {
  return {
    mode: 'two-way',
    deleteRemote: false,
    account: '张三',
    now: NOW,
    platform: 'linux',
    local: [],
    remote: [],
    journal: [],
    frozen: new Map(),
    isIgnored: createIgnoreMatcher([]),
    ...over,
  };
}
