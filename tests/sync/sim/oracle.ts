/**
 * What must hold after a simulated run, once the users stopped and the engine ran clean passes:
 *  - it terminated: a pass planned nothing at all;
 *  - two-way: both sides hold the same tree — same paths (NFC), same spelling, same kinds, same
 *    contents — apart from what may not cross (names a side refuses, ignored names, names the
 *    tenant's rules intercept); no case or NFC/NFD twins are left side by side (one was renamed);
 *  - backup: every such local entry is in the cloud with the same content, and the engine never
 *    changed anything on the local disk;
 *  - nothing was lost and no conflict was resolved silently: every content a user wrote and did not
 *    knowingly replace or delete themselves is a current file somewhere (locally or in the cloud);
 *    a content only in versions or the recycle bin means the engine overwrote or deleted it.
 */
import { judgeSyncFile } from '../../../common/sync/policy';
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_SENSITIVE_KEYWORDS } from '../../../common/transfer/checks';
import { isTemporaryName, pathKey, peerNameProblem, serverNameProblem, SYNC_DIR_NAME } from '../../../workers/sync/names';
import { contentIdOf } from './content';
import type { FakeServer } from './fake-server';
import type { Ledger } from './users';
import type { SimDisk } from './sim-disk';

interface Seen {
  path: string;
  isDir: boolean;
  content: number;
}

const RULES = { blockedExtensions: [...DEFAULT_BLOCKED_EXTENSIONS], sensitiveKeywords: [...DEFAULT_SENSITIVE_KEYWORDS], secretMarks: [] };

/** May this local entry cross to the cloud at all (by its own name and its ancestors')? */
function crosses(path: string, isDir: boolean): boolean {
  const parts = path.split('/');
  for (const part of parts) {
    if (isTemporaryName(part) || serverNameProblem(part)) return false;
  }
  if (!isDir && judgeSyncFile(parts[parts.length - 1]!.normalize('NFC'), RULES).verdict !== 'ok') return false;
  return true;
}

/**
 * `keepTwins` (two-way): case and NFC/NFD twins are kept apart by renaming one (workers/sync/name-clash.ts),
 * so none may be left once the engine ran clean passes (returned in `twins`). Backup never renames on
 * the local disk: twins (and what is under them) are left out of the comparison.
 */
export function localView(disk: SimDisk, keepTwins = false): { synced: Map<string, Seen>; all: Seen[]; twins: string[][] } {
  const all: Seen[] = [];
  for (const [path, node] of disk.walk()) {
    if (path === SYNC_DIR_NAME || path.startsWith(`${SYNC_DIR_NAME}/`)) continue;
    all.push({ path, isDir: node.kind === 'dir', content: node.kind === 'file' ? contentIdOf(node.content) : 0 });
  }
  // Case or NFC twins (possible on a case-sensitive disk) never both cross: leave every twin out.
  const byKey = new Map<string, Seen[]>();
  for (const s of all) {
    const key = pathKey(s.path);
    byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  const crossingTwins = [...byKey.values()].map((list) => list.filter((s) => crosses(s.path, s.isDir))).filter((list) => list.length > 1);
  const twinRoots = keepTwins ? [] : [...byKey.entries()].filter(([, list]) => list.length > 1).map(([key]) => key);
  const synced = new Map<string, Seen>();
  for (const s of all) {
    const key = pathKey(s.path);
    if (twinRoots.some((t) => key === t || key.startsWith(`${t}/`))) continue;
    if (!crosses(s.path, s.isDir)) continue;
    synced.set(key, s);
  }
  return { synced, all, twins: crossingTwins.map((list) => list.map((s) => s.path)) };
}

export function remoteView(server: FakeServer, rootId: string): { synced: Map<string, Seen>; all: Seen[] } {
  const all: Seen[] = [];
  const synced = new Map<string, Seen>();
  const visit = (parentId: string, prefix: string, crossing: boolean) => {
    for (const e of server.children(parentId)) {
      const path = prefix === '' ? e.name : `${prefix}/${e.name}`;
      const seen = { path, isDir: e.isDir, content: e.content ? contentIdOf(e.content) : 0 };
      all.push(seen);
      const ok = crossing && !isTemporaryName(e.name) && (e.isDir || judgeSyncFile(e.name, RULES).verdict === 'ok');
      if (ok) synced.set(pathKey(path), seen);
      if (e.isDir) visit(e.id, path, ok);
    }
  };
  visit(rootId, '', true);
  return { synced, all };
}

export function checkOracle(input: { mode: 'two-way' | 'backup'; disk: SimDisk; server: FakeServer; rootId: string; ledger: Ledger; localWrites: readonly string[] }): string[] {
  const failures: string[] = [];
  const local = localView(input.disk, input.mode === 'two-way');
  const remote = remoteView(input.server, input.rootId);

  if (input.mode === 'two-way') {
    for (const twins of local.twins) {
      // Under a folder whose name is not brought into the cloud, nothing is synced: twins stay.
      if (!twins.some(hasPeerProblem)) failures.push(`case or NFC/NFD twins left side by side: ${twins.join(', ')}`);
    }
    for (const [key, l] of local.synced) {
      const r = remote.synced.get(key);
      // A name Windows (or a 255-byte disk) cannot hold is not brought into the cloud, unless it is there already.
      if (!r && hasPeerProblem(l.path)) continue;
      if (!r) failures.push(`only local: ${l.path}`);
      else if (r.isDir !== l.isDir) failures.push(`kind differs: ${l.path}`);
      else if (r.content !== l.content) failures.push(`content differs: ${l.path} local c${l.content} remote c${r.content}`);
      else if (r.path !== l.path.normalize('NFC')) failures.push(`spelling differs: local ${l.path} remote ${r.path}`);
    }
    for (const [key, r] of remote.synced) {
      if (!local.synced.has(key)) failures.push(`only remote: ${r.path}`);
    }
  } else {
    for (const [key, l] of local.synced) {
      const r = remote.synced.get(key);
      if (!r && hasPeerProblem(l.path)) continue;
      if (!r) failures.push(`not backed up: ${l.path}`);
      else if (r.isDir !== l.isDir || r.content !== l.content) failures.push(`backup differs: ${l.path}`);
    }
    for (const write of input.localWrites) failures.push(`backup changed the local disk: ${write}`);
  }

  const current = new Set<number>([...local.all, ...remote.all].filter((s) => !s.isDir).map((s) => s.content));
  for (const [id, side] of input.ledger.created) {
    if (input.ledger.dropped.has(id) || current.has(id)) continue;
    if (input.mode === 'backup' && side === 'remote' && inHistory(input.server, id)) continue; // backup overwrites cloud edits (kept as versions)
    failures.push(`content c${id} (written ${side}) lost: ${inHistory(input.server, id) ? 'only in versions or the recycle bin' : 'nowhere'}`);
  }
  return failures;
}

/** A name Windows (or a 255-byte disk) cannot hold is not brought into the cloud, unless it is there already. */
function hasPeerProblem(path: string): boolean {
  return path.split('/').some((part) => peerNameProblem(part) !== null);
}

function inHistory(server: FakeServer, id: number): boolean {
  for (const e of server.entries.values()) {
    if (e.content && contentIdOf(e.content) === id) return true;
    if (e.versions.some((v) => contentIdOf(v) === id)) return true;
  }
  return false;
}
