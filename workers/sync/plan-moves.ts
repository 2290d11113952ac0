/**
 * Moves and renames, found before anything else is planned: a journal entry gone from its place on
 * one side and found elsewhere — locally by the file system's id (or, for a file, by a fingerprint no
 * other candidate shares), remotely by its server id — is sent to the other side as one move, not a
 * delete plus an upload. The planner's trees are updated as if the move were done (the journal rows of
 * a moved folder follow it), so everything planned afterwards compares entries at their new places.
 *
 * A move is planned only where it can succeed as planned: the target's parent exists on the other side
 * and the target name is free there. Otherwise (and for journal keys whose move failed before) the
 * entry stays a delete at the old place plus an add at the new one, which the per-path rules handle
 * without losing anything.
 */
import type { JournalEntry, LocalEntry, Op, RemoteEntry } from './model';
import { isConflictCopyName } from './conflict-name';
import { baseName, isInside, joinPath, pathKey } from './names';
import { parentKey, type KeyedTree } from './tree';
import type { SyncMode } from '../../common/sync/types';

export interface MoveContext {
  mode: SyncMode;
  L: KeyedTree<LocalEntry>;
  J: KeyedTree<JournalEntry>;
  R: KeyedTree<RemoteEntry>;
  isFrozen(key: string): boolean;
  /**
   * Is the key in a subtree a side could not read this pass? An entry found moved into one stays
   * where it was known (frozen at its old place too): a move half seen is neither a delete nor a move.
   */
  isUnreadable?(key: string): boolean;
  /** Is anything at or under this key frozen? Such a subtree is not moved as a whole. */
  hasFrozenWithin(key: string): boolean;
  noMove: ReadonlySet<string>;
  /** The local spelling of a folder key ('' = the pair's root). */
  localPathOf(key: string): string | null;
  /** The remote spelling of a folder key ('' = the pair's root). */
  remotePathOf(key: string): string | null;
}

const depth = (key: string): number => key.split('/').length;

const journalPatch = (entry: JournalEntry, key: string, path: string): JournalEntry => ({ ...entry, key, path });

export interface MovePlan {
  ops: Op[];
  /**
   * Keys (old and new place) of moves that will be possible next pass, once the folder they go to
   * exists on the other side (this plan creates it): left alone meanwhile, so the entry is neither
   * deleted at its old place nor copied to its new one.
   */
  pending: Set<string>;
  /** Keys frozen with their subtrees: entries moved into a subtree a side could not read this pass. */
  held: Set<string>;
}

/** Plans the moves and applies them to ctx's trees. Returns the move ops, in execution order. */
export function planMoves(ctx: MoveContext): MovePlan {
  const { L, J, R } = ctx;
  const ops: Op[] = [];
  const pending = new Set<string>();
  const held = new Set<string>();
  if (J.byKey.size === 0) return { ops, pending, held }; // a first pass: nothing can have moved

  // Where each journal row and remote entry is now, by server id (kept current as subtrees move).
  const journalKeyById = new Map<string, string>();
  for (const [key, j] of J.byKey) journalKeyById.set(j.remoteId, key);
  const remoteKeyById = new Map<string, string>();
  for (const [key, r] of R.byKey) remoteKeyById.set(r.id, key);

  const usedTargets = new Set<string>();

  // Candidates: rows gone locally, or whose remote entry sits elsewhere. Shallow first, so a moved
  // folder carries its rows before they are looked at one by one.
  const candidates: Array<{ id: string; depth: number }> = [];
  for (const [key, j] of J.byKey) {
    const remoteKey = remoteKeyById.get(j.remoteId);
    if (!L.has(key) || (remoteKey !== undefined && remoteKey !== key)) candidates.push({ id: j.remoteId, depth: depth(key) });
  }
  // Nothing moved (a first pass, an idle one): the indexes below are not built at all.
  if (candidates.length === 0) return { ops, pending, held };
  candidates.sort((a, b) => a.depth - b.depth);

  // Local entries the journal does not know at their place: possible move targets.
  const newLocalByFileId = new Map<string, string[]>();
  const newLocalByFingerprint = new Map<string, string[]>();
  for (const [key, l] of L.byKey) {
    if (J.has(key) || ctx.isFrozen(key) || isConflictCopyName(baseName(l.path))) continue;
    if (l.fileId) push(newLocalByFileId, l.fileId, key);
    if (!l.isDir && l.size > 0 && l.fingerprint) push(newLocalByFingerprint, l.fingerprint, key);
  }
  // Journal files gone locally, per fingerprint: a fingerprint match counts only when it is unique.
  const goneByFingerprint = new Map<string, number>();
  for (const [key, j] of J.byKey) {
    if (!L.has(key) && !j.isDir && j.fingerprint && j.size > 0) goneByFingerprint.set(j.fingerprint, (goneByFingerprint.get(j.fingerprint) ?? 0) + 1);
  }

  const moveJournal = (fromKey: string, toKey: string, toPath: string) => {
    J.move(fromKey, toKey, toPath, (entry, key, path) => {
      journalKeyById.set(entry.remoteId, key);
      return journalPatch(entry, key, path);
    });
  };
  const moveRemoteTree = (fromKey: string, toKey: string, toPath: string) => {
    R.move(fromKey, toKey, toPath, (entry, key, path) => {
      remoteKeyById.set(entry.id, key);
      return { ...entry, path };
    });
  };
  /** Is `toKey` free on the remote side, under an existing, unfrozen folder? */
  const remoteTargetOk = (toKey: string) => {
    if (R.has(toKey) || ctx.isFrozen(toKey)) return false;
    const parent = parentKey(toKey);
    return parent === '' || (R.get(parent)?.isDir === true && !ctx.isFrozen(parent));
  };
  const localTargetOk = (toKey: string) => {
    if (L.has(toKey) || ctx.isFrozen(toKey)) return false;
    const parent = parentKey(toKey);
    return parent === '' || (L.get(parent)?.isDir === true && !ctx.isFrozen(parent));
  };
  /** The target's folder is missing on this side but exists on the other, so this plan creates it here. */
  const parentComing = (toKey: string, here: KeyedTree<LocalEntry> | KeyedTree<RemoteEntry>, there: KeyedTree<LocalEntry> | KeyedTree<RemoteEntry>) => {
    if (here.has(toKey) || ctx.isFrozen(toKey)) return false;
    for (let k = parentKey(toKey); k !== ''; k = parentKey(k)) {
      if (ctx.isFrozen(k) || there.get(k)?.isDir !== true) return false;
      // Missing because it moved or was deleted (not a new folder this plan creates): no waiting.
      if (!here.has(k) && J.has(k)) return false;
      if (here.has(k)) return here.get(k)!.isDir && k !== parentKey(toKey);
    }
    return true;
  };

  for (const { id } of candidates) {
    const key = journalKeyById.get(id);
    const j = key === undefined ? undefined : J.get(key);
    if (key === undefined || !j || j.remoteId !== id || ctx.isFrozen(key) || ctx.noMove.has(key)) continue;
    if (held.size > 0 && [...held].some((h) => isInside(key, h))) continue;
    // A folder holding something frozen (a case twin, an ignored or refused name) is not moved whole:
    // what the pass leaves alone must stay where it is known.
    if (j.isDir && ctx.hasFrozenWithin(key)) continue;
    const remoteKey = remoteKeyById.get(id);
    const remoteMoved = remoteKey !== undefined && remoteKey !== key;
    const localHere = L.get(key);
    if (remoteMoved && ctx.isUnreadable?.(remoteKey)) {
      // Moved in the cloud into a subtree a side could not read: left where it was known (with
      // everything under it) until both sides can be seen. (Missing locally while the scan had
      // holes, an entry is held by the planner.)
      held.add(key);
      continue;
    }
    const localTarget = localHere ? undefined : findLocalTarget(j);

    if (localTarget !== undefined && remoteKey !== undefined) {
      // Moved locally (and maybe remotely too: the local move wins).
      const l = L.get(localTarget)!;
      if (remoteKey === localTarget) {
        // Both sides made the same move: only the journal follows.
        usedTargets.add(localTarget);
        const toPath = R.get(remoteKey)!.path;
        moveJournal(key, localTarget, toPath);
        ops.push({ kind: 'rebase', fromKey: key, toKey: localTarget, toPath });
        continue;
      }
      if (!remoteTargetOk(localTarget)) {
        if (remoteKey === key && parentComing(localTarget, R, L)) {
          pending.add(key);
          pending.add(localTarget);
          usedTargets.add(localTarget);
        }
        continue;
      }
      const parentRemote = ctx.remotePathOf(parentKey(localTarget));
      if (parentRemote === null) continue;
      usedTargets.add(localTarget);
      const from = R.get(remoteKey)!;
      const toPath = joinPath(parentRemote, baseName(l.path).normalize('NFC'));
      ops.push({ kind: 'moveRemote', fromKey: remoteKey, toKey: localTarget, remoteId: id, fromPath: from.path, toPath, isDir: j.isDir, journalKey: key });
      moveRemoteTree(remoteKey, localTarget, toPath);
      moveJournal(key, localTarget, toPath);
      continue;
    }

    if (remoteMoved && localHere && ctx.mode === 'two-way' && localHere.isDir === j.isDir) {
      // Moved remotely, still in its place locally (edited or not: content is compared after the move).
      if (!localTargetOk(remoteKey)) {
        if (parentComing(remoteKey, L, R)) {
          pending.add(key);
          pending.add(remoteKey);
        }
        continue;
      }
      const parentLocal = ctx.localPathOf(parentKey(remoteKey));
      if (parentLocal === null) continue;
      const r = R.get(remoteKey)!;
      const toPath = joinPath(parentLocal, baseName(r.path));
      ops.push({ kind: 'moveLocal', fromKey: key, toKey: remoteKey, fromPath: localHere.path, toPath, expect: expectOf(localHere), journalPath: r.path });
      L.move(key, remoteKey, toPath);
      moveJournal(key, remoteKey, r.path);
    }
  }
  return { ops, pending, held };

  function findLocalTarget(j: JournalEntry): string | undefined {
    if (j.fileId) {
      const byId = (newLocalByFileId.get(j.fileId) ?? []).find((k) => !usedTargets.has(k) && L.get(k)?.isDir === j.isDir && !J.has(k));
      if (byId !== undefined) return byId;
    }
    if (j.isDir || !j.fingerprint || j.size === 0 || goneByFingerprint.get(j.fingerprint) !== 1) return undefined;
    const byContent = (newLocalByFingerprint.get(j.fingerprint) ?? []).filter((k) => !usedTargets.has(k) && !J.has(k) && L.get(k)?.size === j.size);
    return byContent.length === 1 ? byContent[0] : undefined;
  }
}

export function expectOf(l: LocalEntry): { size: number; mtimeMs: number; fileId: string; isDir: boolean } {
  return { size: l.size, mtimeMs: l.mtimeMs, fileId: l.fileId, isDir: l.isDir };
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Re-exported for the planner: the key of a local entry. */
export const keyOf = (e: { path: string }): string => pathKey(e.path);
