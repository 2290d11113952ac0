/**
 * What must hold after a simulated run, once the users stopped and the engine ran clean passes:
 *  - it terminated: a pass planned nothing at all;
 *  - two-way: both sides hold the same tree — same paths (NFC), same spelling, same kinds, same
 *    contents — apart from what may not cross (names a side refuses, ignored names, names the
 *    tenant's rules intercept, case twins on a case-sensitive disk);
 *  - backup: every such local entry is in the cloud with the same content, and the engine never
 *    changed anything on the local disk;
 *  - nothing was lost and no conflict was resolved silently: every content a user wrote and did not
 *    knowingly replace or delete themselves is a current file somewhere (locally or in the cloud);
 *    a content only in versions or the recycle bin means the engine overwrote or deleted it.
 */
import { judgeSyncFile } from '../../../common/sync/policy';
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_SENSITIVE_KEYWORDS } from '../../../common/transfer/checks';
import { isTemporaryName, pathKey, serverNameProblem, SYNC_DIR_NAME } from '../../../workers/sync/names';
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

export function localView(disk: SimDisk): { synced: Map<string, Seen>; all: Seen[] } {
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
  const twinRoots = [...byKey.entries()].filter(([, list]) => list.length > 1).map(([key]) => key);
  const synced = new Map<string, Seen>();
  for (const s of all) {
    const key = pathKey(s.path);
    if (twinRoots.some((t) => key === t || key.startsWith(`${t}/`))) continue;
    if (!crosses(s.path, s.isDir)) continue;
    synced.set(key, s);
  }
  return { synced, all };
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
  const local = localView(input.disk);
  const remote = remoteView(input.server, input.rootId);

  if (input.mode === 'two-way') {
    for (const [key, l] of local.synced) {
      const r = remote.synced.get(key);
      if (!r) failures.push(`only local: ${l.path}`);
      else if (r.isDir !== l.isDir) failures.push(`kind differs: ${l.path}`);
      else if (r.content !== l.content) failures.push(`content differs: ${l.path} local c${l.content} remote c${r.content}`);
      else if (r.path !== l.path.normalize('NFC')) failures.push(`spelling differs: local ${l.path} remote ${r.path}`);
    }
    for (const [key, r] of remote.synced) {
      // A cloud entry under a local case twin cannot come down: the twin is left out on both sides.
      if (!local.synced.has(key) && !hasLocalTwinAbove(local.all, key)) failures.push(`only remote: ${r.path}`);
    }
  } else {
    for (const [key, l] of local.synced) {
      const r = remote.synced.get(key);
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

function hasLocalTwinAbove(all: readonly Seen[], key: string): boolean {
  const counts = new Map<string, number>();
  for (const s of all) counts.set(pathKey(s.path), (counts.get(pathKey(s.path)) ?? 0) + 1);
  for (let k = key; k !== ''; k = k.includes('/') ? k.slice(0, k.lastIndexOf('/')) : '') {
    if ((counts.get(k) ?? 0) > 1) return true;
  }
  return false;
}

function inHistory(server: FakeServer, id: number): boolean {
  for (const e of server.entries.values()) {
    if (e.content && contentIdOf(e.content) === id) return true;
    if (e.versions.some((v) => contentIdOf(v) === id)) return true;
  }
  return false;
}
