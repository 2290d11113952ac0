/**
 * Name conflicts of a copy or move (spec §3 "copy", "move"): the server names the items whose name
 * already exists in the target; the user is asked item by item — rename (the server picks a free
 * name), upload as a new version (files only: the target keeps its history), or skip — optionally
 * applying the answer to the rest. Pure state, so the dialog stays a thin view and the rules are tested.
 */

export type ConflictDecision = 'rename' | 'newVersion' | 'skip';

export interface ConflictItem {
  id: string;
  name: string;
  isDir: boolean;
}

export const DECISION_LABELS: Record<ConflictDecision, string> = {
  rename: '保留两者（自动重命名）',
  newVersion: '作为新版本覆盖',
  skip: '跳过',
};

/** A folder has no versions: it can only be renamed or skipped. */
export function decisionsFor(item: ConflictItem): ConflictDecision[] {
  return item.isDir ? ['rename', 'skip'] : ['rename', 'newVersion', 'skip'];
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
 * decision is allowed gets it too; the others (folders, for 'newVersion') are still asked about.
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

/** The items to send again and how, leaving out the skipped ones. */
export function resolutionsOf(session: ConflictSession): Array<{ id: string; decision: Exclude<ConflictDecision, 'skip'> }> {
  const out: Array<{ id: string; decision: Exclude<ConflictDecision, 'skip'> }> = [];
  for (const [id, decision] of session.decided) if (decision !== 'skip') out.push({ id, decision });
  return out;
}

/**
 * A folder cannot go into itself or into one of its own sub-folders. `targetPath` is the target's
 * path from the root (its ancestors' ids, then its own); returns the first selected folder on it, or null.
 */
export function folderIntoItself(selection: ReadonlyArray<{ id: string; isDir: boolean }>, targetPath: readonly string[]): { id: string } | null {
  const onPath = new Set(targetPath);
  return selection.find((item) => item.isDir && onPath.has(item.id)) ?? null;
}
