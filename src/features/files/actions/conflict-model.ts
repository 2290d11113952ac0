/**
 * Name conflicts of a copy, move or restore (spec §3 "copy", "move"): the server answers
 * CONFLICT_DECISION_REQUIRED with the clashing items and changes nothing; the user is asked item by
 * item — rename (the server picks a free name), new version (files onto files only: the existing file
 * keeps its history), or skip — optionally applying the answer to the rest; then the call is sent
 * again with a decision per id. Pure state, so the dialog stays a thin view and the rules are tested.
 */
import type { ConflictDecision, NameConflict } from '../../../../common/api/types';

export type { ConflictDecision };

export interface ConflictItem {
  id: string;
  name: string;
  /** The item being placed is a folder. */
  isDir: boolean;
  /** The entry already holding the name is a folder. */
  existingIsDir: boolean;
  /** The free name 'rename' would use. */
  suggestedName: string;
}

export const DECISION_LABELS: Record<ConflictDecision, string> = {
  rename: '保留两者（自动重命名）',
  overwrite: '作为新版本覆盖',
  skip: '跳过',
};

/** A folder has no versions: when either side is a folder, only rename or skip apply. */
export function decisionsFor(item: Pick<ConflictItem, 'isDir' | 'existingIsDir'>): ConflictDecision[] {
  return item.isDir || item.existingIsDir ? ['rename', 'skip'] : ['rename', 'overwrite', 'skip'];
}

/**
 * The server's clashes joined with what the client knows of each item (whether it is a folder),
 * keeping the server's order. A clash for an id the client did not send is ignored.
 */
export function conflictItemsOf(conflicts: readonly NameConflict[], selection: ReadonlyArray<{ id: string; isDir: boolean }>): ConflictItem[] {
  const dirs = new Map(selection.map((s) => [s.id, s.isDir]));
  return conflicts
    .filter((c) => dirs.has(c.id))
    .map((c) => ({ id: c.id, name: c.name, isDir: dirs.get(c.id) === true, existingIsDir: c.existingIsDir, suggestedName: c.suggestedName }));
}

/** The decisions to send with the retry: one for each asked item, skips included. */
export function decisionsOf(session: ConflictSession): Record<string, ConflictDecision> {
  return Object.fromEntries(session.decided);
}

export interface ConflictSession {
  /** Items still to be asked about, in the order shown. */
  pending: ConflictItem[];
  decided: Map<string, ConflictDecision>;
}

export function startConflicts(items: ConflictItem[]): ConflictSession {
  return { pending: [...items], decided: new Map() };
}

export function currentConflict(session: ConflictSession): ConflictItem | null {
  return session.pending[0] ?? null;
}

export function conflictsDone(session: ConflictSession): boolean {
  return session.pending.length === 0;
}

/**
 * Records `decision` for the current item. With `applyToRest`, every remaining item for which the
 * decision is allowed gets it too; the others (folders, for 'overwrite') are still asked about.
 * A decision the current item does not allow is refused (the session is returned unchanged).
 */
export function decideConflict(session: ConflictSession, decision: ConflictDecision, applyToRest = false): ConflictSession {
  const [head, ...rest] = session.pending;
  if (!head || !decisionsFor(head).includes(decision)) return session;
  const decided = new Map(session.decided);
  decided.set(head.id, decision);
  const pending: ConflictItem[] = [];
  for (const item of rest) {
    if (applyToRest && decisionsFor(item).includes(decision)) decided.set(item.id, decision);
    else pending.push(item);
  }
  return { pending, decided };
}

/**
 * A folder cannot go into itself or into one of its own sub-folders. `targetPath` is the target's
 * path from the root (its ancestors' ids, then its own); returns the first selected folder on it, or null.
 */
export function folderIntoItself(selection: ReadonlyArray<{ id: string; isDir: boolean }>, targetPath: readonly string[]): { id: string } | null {
  const onPath = new Set(targetPath);
  return selection.find((item) => item.isDir && onPath.has(item.id)) ?? null;
}
