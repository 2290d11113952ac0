/**
 * The planner: local tree + journal + remote tree → the smallest set of operations that brings both
 * sides to agreement without losing anything. Pure: no I/O, no clock (the time comes in), so it is
 * tested on its own and driven by the randomized simulation (tests/sync/).
 *
 * Per path key, each side's state against the journal (the merge base) is one of none / added /
 * same / changed / deleted, and the pair of states decides (decide-two-way.ts, decide-backup.ts).
 * The rules that keep data safe:
 *  - only a side that changed overwrites the other; both changed → both kept (conflict copy);
 *  - a delete is sent only for what the other side still holds as agreed: a folder goes only when
 *    nothing under it survives on the other side (a new or changed file there keeps it);
 *  - an overwrite or delete carries what it expects to find (the local stat, the remote
 *    fingerprint): the executor refuses it when something changed after the scan.
 *
 * Entries the pass must not touch (names a side refuses, ignored names, files still being written,
 * held by policy) are frozen: no operation for them, and they keep their folders alive.
 */
import { suggestFileName } from '../../common/validation/names';
import type { JournalEntry, LocalEntry, Op, Plan, PlanInput, PlanProblem, RemoteEntry } from './model';
import { baseName, isInside, joinPath, localNameProblem, parentPath, pathKey, peerNameProblem, serverNameProblem } from './names';
import { clashCopyName, clashKind, keeperOf, type ClashKind } from './name-clash';
import { expectOf, planMoves } from './plan-moves';
import { KeyedTree, parentKey } from './tree';
import { decideBackup } from './decide-backup';
import { decideTwoWay, decideTypeClash, type Decision, type DecideContext } from './decide-two-way';

export function plan(input: PlanInput): Plan {
  const problems: PlanProblem[] = [];
  const J = new KeyedTree<JournalEntry>(input.journal);
  const frozenKeys = new Set<string>();
  /** Keys whose whole subtree is frozen. */
  const frozenTrees = new Set<string>();
  /** Of those, the subtrees a side could not read this pass (scan or listing errors). */
  const unreadableTrees = new Set<string>();
  for (const u of input.unreadable ?? []) {
    const key = pathKey(u.path);
    if (key === '') throw new Error('the pair\'s root could not be read: the pass must not plan');
    unreadableTrees.add(key);
  }

  /** Folders holding a local entry the pass leaves out (a refused name, a case twin): never removed. */
  const keptLocalParents = new Set<string>();
  const losers: ClashLoser[] = [];
  const L = indexLocal(input, J, problems, frozenTrees, keptLocalParents, losers);
  const R = indexRemote(input, problems, frozenTrees);
  // Frozen paths count for the entry the pass keeps at their key (not for a case twin left out);
  // an unreadable path with no entry (a link, say) freezes its key.
  const heldByPolicy = new Set<string>();
  for (const path of input.frozen.keys()) {
    const key = pathKey(path);
    const kept = L.get(key);
    if (kept && kept.path !== path) continue;
    frozenKeys.add(key);
    if (input.heldByPolicy?.has(path)) heldByPolicy.add(key);
  }

  const isUnreadable = (key: string): boolean => {
    if (unreadableTrees.size === 0) return false;
    for (let k = key; k !== ''; k = parentPath(k)) if (unreadableTrees.has(k)) return true;
    return false;
  };
  const isFrozen = (key: string): boolean => {
    if (frozenKeys.has(key)) return true;
    for (let k = key; k !== ''; k = parentPath(k)) if (frozenTrees.has(k)) return true;
    return isUnreadable(key);
  };

  let scannedPaths: Set<string> | null = null; // built on first use: rarely needed
  let allLocalKeys: Set<string> | null = null; // likewise
  const localPaths = new Map<string, string>();
  const remotePaths = new Map<string, string>();
  /** Local spelling of a key: the entry's own, else its parent's plus the remote name. */
  const localPathOf = (key: string): string | null => {
    if (key === '') return '';
    const known = L.get(key)?.path ?? localPaths.get(key);
    if (known !== undefined) return known;
    const parent = localPathOf(parentKey(key));
    const name = R.get(key)?.path ?? J.get(key)?.path;
    return parent === null || name === undefined ? null : joinPath(parent, baseName(name));
  };
  const remotePathOf = (key: string): string | null => {
    if (key === '') return '';
    const known = R.get(key)?.path ?? remotePaths.get(key);
    if (known !== undefined) return known;
    const parent = remotePathOf(parentKey(key));
    const name = L.get(key)?.path ?? J.get(key)?.path;
    return parent === null || name === undefined ? null : joinPath(parent, baseName(name).normalize('NFC'));
  };

  const hasFrozenWithin = (key: string): boolean => {
    for (const k of frozenKeys) if (k === key || isInside(k, key)) return true;
    for (const k of frozenTrees) if (k === key || isInside(k, key)) return true;
    for (const k of unreadableTrees) if (k === key || isInside(k, key)) return true;
    return false;
  };
  const moves = planMoves({ mode: input.mode, L, J, R, isFrozen, isUnreadable, hasFrozenWithin, noMove: input.noMove ?? new Set(), localPathOf, remotePathOf });
  const moveOps = moves.ops;
  for (const key of moves.pending) frozenKeys.add(key);
  for (const key of moves.held) unreadableTrees.add(key);

  // ---- per path, children before parents (a folder's fate depends on what survives under it) ----
  let remoteIds: Set<string> | null = null; // built on first use: only a remote delete asks
  const ordered = unionOfKeys(L, J, R).sort().reverse();
  const localSurvivors = new Set<string>(keptLocalParents);
  const remoteSurvivors = new Set<string>();
  const buckets = { stale: [] as Op[], renames: [] as Op[], conflicts: [] as Op[], deleteRemote: [] as Op[], deleteLocal: [] as Op[], mkdir: [] as Op[], transfers: [] as Op[], journal: [] as Op[] };
  const takenLocal = (key: string) => L.has(key) || localPaths.has(key);
  const takenRemote = (key: string) => R.has(key) || remotePaths.has(key);
  const ctx: DecideContext = {
    account: input.account,
    now: input.now,
    localPathOf,
    remotePathOf,
    hasLocalSurvivor: (key) => localSurvivors.has(key),
    hasRemoteSurvivor: (key) => remoteSurvivors.has(key),
    isLocalPathOccupied: (path) => (scannedPaths ??= new Set(input.local.map((l) => l.path))).has(path),
    // Every listed entry, those under an ignored cloud folder too: moved there is not deleted.
    isRemoteAlive: (id) => (remoteIds ??= new Set(input.remote.map((r) => r.id))).has(id),
    // A cloud folder missing here is created here (decided after its children, so assumed now).
    isLocalFolder: (key) => key === '' || (L.has(key) ? L.get(key)!.isDir : R.get(key)?.isDir === true && !isFrozen(key)),
    noMove: input.noMove ?? new Set(),
    isNameTaken: (parentKeyOfName, name) => {
      const key = pathKey(joinPath(parentKeyOfName, name));
      // Every scanned name counts, those the pass leaves out too (a twin, a name the cloud does not get).
      return takenLocal(key) || takenRemote(key) || J.has(key) || (allLocalKeys ??= new Set(input.local.map((l) => pathKey(l.path)))).has(key);
    },
  };

  for (const loser of losers) renameAside(loser);

  // A side seen with holes (a folder it could not read): an agreed entry missing from that side may
  // be in a hole — moved there — not deleted or replaced. It is left alone this pass (rclone's rule:
  // nothing deleted on a partial view); the next pass that reads everything decides.
  const localHoles = (input.unreadable ?? []).some((u) => u.side === 'local');
  const remoteHoles = (input.unreadable ?? []).some((u) => u.side === 'remote');
  for (const key of ordered) {
    const l = L.get(key);
    const r = R.get(key);
    let j = J.get(key);
    if (j && ((localHoles && !l) || (remoteHoles && (!r || r.id !== j.remoteId) && !ctx.isRemoteAlive(j.remoteId)))) {
      mark(key, Boolean(l), Boolean(r));
      continue;
    }
    if (isFrozen(key)) {
      if (l && r && !l.isDir && r.isDir && input.mode === 'two-way' && heldByPolicy.has(key) && frozenKeys.has(key) && !isFrozen(parentKey(key))) {
        // A file the rules hold back has the name of a cloud folder: it steps aside (never uploaded).
        const decision = decideTypeClash(ctx, key, l, r);
        for (const op of decision.ops) bucketOf(op).push(op);
      }
      mark(key, Boolean(l), Boolean(r));
      continue;
    }
    // A journal row of another kind than what a side now holds was replaced there: it is no base.
    if (j && ((l && l.isDir !== j.isDir) || (r && r.isDir !== j.isDir))) {
      buckets.stale.push({ kind: 'forget', key });
      j = undefined;
    }
    const decision: Decision = input.mode === 'two-way' ? decideTwoWay(ctx, key, l, j, r) : decideBackup(ctx, key, l, j, r, input.deleteRemote);
    for (const op of decision.ops) {
      bucketOf(op).push(op);
      if (op.kind === 'mkdirLocal') localPaths.set(op.key, op.path);
      if (op.kind === 'mkdirRemote') remotePaths.set(op.key, op.path);
      if (op.kind === 'conflictLocal') localPaths.set(pathKey(op.toPath), op.toPath);
    }
    if (decision.problem) problems.push(decision.problem);
    mark(key, decision.local, decision.remote);
  }

  // A folder sent to the recycle bin takes its subtree along: its children need no call of their own.
  const deletedDirs = new Set(buckets.deleteRemote.filter((op) => op.kind === 'deleteRemote' && op.isDir).map((op) => (op as { key: string }).key));
  buckets.deleteRemote = buckets.deleteRemote.filter((op) => {
    if (op.kind !== 'deleteRemote') return true;
    for (let k = parentKey(op.key); k !== ''; k = parentKey(k)) if (deletedDirs.has(k)) return false;
    return true;
  });
  // Folders are created parents first; everything else keeps the children-first order.
  buckets.mkdir.reverse();
  buckets.transfers.reverse();
  buckets.conflicts.reverse();
  buckets.renames.reverse();

  return {
    ops: [
      ...buckets.stale,
      ...moveOps,
      ...buckets.renames,
      ...buckets.conflicts,
      ...buckets.deleteRemote,
      ...buckets.deleteLocal,
      ...buckets.mkdir,
      ...buckets.transfers,
      ...buckets.journal,
    ],
    problems,
  };

  /**
   * A case or NFC/NFD twin steps aside under its clash name (name-clash.ts) and, a file, goes up
   * under it in this pass (a folder's content in the pass's next round). Backup mode never changes
   * the local disk: the twin is listed instead.
   */
  function renameAside({ entry, kind, keeperName }: ClashLoser): void {
    const key = pathKey(entry.path);
    if (input.frozen.has(entry.path) || isFrozen(parentKey(key))) return; // being written, held back, unreadable: later
    const parent = parentKey(key);
    const localParent = parentPath(entry.path);
    // Its folder moves in this plan: the twin is taken up next pass, at its new place.
    if (parent !== '' && L.get(parent)?.path !== localParent) return;
    const remoteParent = remotePathOf(parent);
    if (input.mode !== 'two-way' || remoteParent === null) {
      problems.push({ path: entry.path, side: 'local', reason: `无法上传“${baseName(entry.path)}”：与“${keeperName}”只有${kind === 'case' ? '大小写' : '字符编码'}不同，云端只能保存其中一个。请重命名其中一个` });
      return;
    }
    allLocalKeys ??= new Set(input.local.map((l) => pathKey(l.path)));
    const name = clashCopyName(baseName(entry.path), entry.isDir, kind, (candidate) => {
      const k = pathKey(joinPath(parent, candidate));
      return allLocalKeys!.has(k) || takenLocal(k) || takenRemote(k) || J.has(k);
    });
    const toPath = joinPath(localParent, name);
    const copyKey = pathKey(toPath);
    buckets.conflicts.push({ kind: 'conflictLocal', key, path: entry.path, toPath, expect: expectOf(entry), clash: kind });
    localPaths.set(copyKey, toPath);
    if (entry.isDir) return;
    const remotePath = joinPath(remoteParent, name.normalize('NFC'));
    remotePaths.set(copyKey, remotePath);
    buckets.transfers.push({ kind: 'upload', key: copyKey, path: toPath, remotePath, local: entry, replace: null });
    remoteSurvivors.add(parent);
  }

  function mark(key: string, localAfter: boolean, remoteAfter: boolean): void {
    const parent = parentKey(key);
    if (localAfter) localSurvivors.add(parent);
    if (remoteAfter) remoteSurvivors.add(parent);
  }

  function bucketOf(op: Op): Op[] {
    switch (op.kind) {
      case 'moveRemote':
      case 'moveLocal':
        return buckets.renames;
      case 'conflictLocal':
        return buckets.conflicts;
      case 'deleteRemote':
        return buckets.deleteRemote;
      case 'deleteLocal':
        return buckets.deleteLocal;
      case 'mkdirLocal':
      case 'mkdirRemote':
        return buckets.mkdir;
      case 'upload':
      case 'download':
        return buckets.transfers;
      default:
        return buckets.journal;
    }
  }
}

/** A local entry that shares its key with another kept under its name: renamed aside this pass (name-clash.ts). */
interface ClashLoser {
  entry: LocalEntry;
  kind: ClashKind;
  /** The name of the entry that keeps it. */
  keeperName: string;
}

/**
 * The local side as the planner sees it: ignored names out (and frozen, so a new ignore pattern
 * never deletes what was synced before), names the cloud must not get out with a problem, and of two
 * spellings of one key (case or NFC/NFD twins on a case-sensitive disk) only the one that keeps its
 * name (name-clash.ts); the others are returned in `losers`, to be renamed aside.
 */
function indexLocal(
  input: PlanInput,
  J: KeyedTree<JournalEntry>,
  problems: PlanProblem[],
  frozenTrees: Set<string>,
  keptParents: Set<string>,
  losers: ClashLoser[],
): KeyedTree<LocalEntry> {
  const L = new KeyedTree<LocalEntry>();
  const excluded = new Set<string>(); // local paths (spelled) left out with their subtree
  let remoteByKey: Map<string, RemoteEntry> | null = null; // built on first use: twins and odd names are rare
  const remoteAt = (key: string) => (remoteByKey ??= new Map(input.remote.map((r) => [pathKey(r.path), r]))).get(key);
  let journalIds: Set<string> | null = null;
  const isJournalFile = (fileId: string) => (journalIds ??= new Set(input.journal.map((j) => j.fileId))).has(fileId);
  // Parents before children (by depth), so a folder's twin is decided before anything under either.
  // Depth by counting slashes: splitting both paths in each of a 100,000-entry sort's ~1.7 million
  // comparisons made millions of short-lived arrays, and a side table of depths costs a map as large as the tree.
  const sorted = [...input.local].sort((a, b) => slashes(a.path) - slashes(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const l of sorted) {
    if (hasExcludedAncestor(l.path, excluded)) continue;
    const key = pathKey(l.path);
    if (l.ignored || input.isIgnored(l.path, l.isDir)) {
      // Never synced, but kept in view, frozen: it keeps its folder (nothing is deleted under it).
      excluded.add(l.path);
      frozenTrees.add(key);
      if (!L.has(key)) L.set(key, l);
      continue;
    }
    const name = baseName(l.path);
    // A name another computer cannot hold is not brought into the cloud by new content. One the cloud
    // holds already, or a synced entry moved or renamed to it, is synced as it is: a name never makes
    // the pass take a synced file for deleted.
    const serverProblem = serverNameProblem(name);
    const peerProblem = serverProblem === null ? peerNameProblem(name) : null;
    const problem = serverProblem ?? (peerProblem === null || J.has(key) || remoteAt(key) || isJournalFile(l.fileId) ? null : peerProblem);
    if (problem) {
      excluded.add(l.path);
      keptParents.add(parentKey(key));
      // The web app's one-click fix (full-width twins, common/validation/names.ts), as a hint.
      const twin = serverProblem === null ? null : suggestFileName(name);
      const hint = twin !== null && twin !== name ? `，例如改为“${twin}”` : '';
      problems.push({ path: l.path, side: 'local', reason: `无法上传“${name}”：${problem}。请重命名该${l.isDir ? '文件夹' : '文件'}${hint}` });
      continue;
    }
    const other = L.get(key);
    if (other) {
      // Two spellings of one key (case or NFC/NFD twins on a case-sensitive disk): the cloud can hold
      // only one under its name. One keeps it; the other is renamed aside (with its subtree, which
      // the next round of the pass takes up under the new name).
      const keeper = keeperOf([other, l], J.get(key), remoteAt(key));
      const loser = keeper === l ? other : l;
      L.set(key, keeper);
      excluded.add(loser.path);
      keptParents.add(parentKey(key));
      losers.push({ entry: loser, kind: clashKind(baseName(keeper.path), baseName(loser.path)), keeperName: baseName(keeper.path) });
      continue;
    }
    L.set(key, l);
  }
  return L;
}

function indexRemote(input: PlanInput, problems: PlanProblem[], frozenTrees: Set<string>): KeyedTree<RemoteEntry> {
  const R = new KeyedTree<RemoteEntry>();
  const sorted = [...input.remote].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const r of sorted) {
    const key = pathKey(r.path);
    let frozenAbove = false;
    for (let k = parentPath(key); k !== '' && !frozenAbove; k = parentPath(k)) frozenAbove = frozenTrees.has(k);
    if (frozenAbove) continue;
    if (input.isIgnored(r.path, r.isDir)) {
      frozenTrees.add(key);
      R.set(key, r);
      continue;
    }
    const problem = localNameProblem(baseName(r.path), input.platform);
    if (problem) {
      // Kept in the tree (it keeps its folder alive) but frozen: never downloaded, never deleted.
      frozenTrees.add(key);
      problems.push({ path: r.path, side: 'remote', reason: `无法下载“${baseName(r.path)}”：${problem}（可在网页端重命名）` });
    }
    R.set(key, r);
  }
  return R;
}

/** Every key of the three trees, once: each tree's keys are distinct, so only the later trees are checked. */
function unionOfKeys(L: KeyedTree<LocalEntry>, J: KeyedTree<JournalEntry>, R: KeyedTree<RemoteEntry>): string[] {
  const keys: string[] = [...L.keys()];
  for (const k of J.keys()) if (!L.has(k)) keys.push(k);
  for (const k of R.keys()) if (!L.has(k) && !J.has(k)) keys.push(k);
  return keys;
}

function slashes(path: string): number {
  let n = 0;
  for (let i = path.indexOf('/'); i !== -1; i = path.indexOf('/', i + 1)) n++;
  return n;
}

function hasExcludedAncestor(path: string, excluded: ReadonlySet<string>): boolean {
  for (let p = parentPath(path); p !== ''; p = parentPath(p)) if (excluded.has(p)) return true;
  return false;
}

export { isInside };
