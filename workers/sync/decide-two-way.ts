/**
 * Two-way sync: what to do with one path, given its local entry, journal row and remote entry.
 *
 * | local \ remote | none        | added            | same           | changed          | deleted        |
 * |----------------|-------------|------------------|----------------|------------------|----------------|
 * | none           | –           | download / mkdir |                |                  |                |
 * | added          | upload/mkdir| adopt if equal, else conflict |   |                  |                |
 * | same           |             |                  | (record)       | download         | delete local   |
 * | changed        |             |                  | upload version | adopt or conflict| upload new     |
 * | deleted        |             |                  | delete remote  | download         | forget         |
 *
 * Folders: "deleted" on one side sends the delete only when nothing under the folder survives on
 * the other side; otherwise the folder is created again where it was deleted.
 * A conflict keeps both: the local entry steps aside under its conflict-copy name (uploaded as a new
 * file), the remote content takes the original name.
 */
import { conflictCopyName } from './conflict-name';
import type { JournalEntry, LocalEntry, Op, PlanProblem, RemoteEntry } from './model';
import { MTIME_TRUST_MS } from './model';
import { baseName, joinPath, pathKey } from './names';
import { expectOf } from './plan-moves';
import { parentKey } from './tree';

export interface DecideContext {
  account: string;
  now: number;
  localPathOf(key: string): string | null;
  remotePathOf(key: string): string | null;
  hasLocalSurvivor(key: string): boolean;
  hasRemoteSurvivor(key: string): boolean;
  /** Is this name taken in that folder on either side (or by the journal)? */
  isNameTaken(parentKey: string, name: string): boolean;
  /** Does a scanned local entry sit at exactly this path (a case twin left out, say)? */
  isLocalPathOccupied(path: string): boolean;
  /** Is (or will be, after this plan) this key a local folder? '' is the pair's root. */
  isLocalFolder(key: string): boolean;
  /** Does the remote tree hold an entry with this id (anywhere)? */
  isRemoteAlive(id: string): boolean;
  /** Keys whose move or rename failed before: not tried again this way. */
  noMove: ReadonlySet<string>;
}

export interface Decision {
  ops: Op[];
  /** Does the entry exist on each side once the plan is done? */
  local: boolean;
  remote: boolean;
  problem?: PlanProblem;
}

export type SideState = 'none' | 'added' | 'same' | 'changed' | 'deleted';

export function localState(l: LocalEntry | undefined, j: JournalEntry | undefined): SideState {
  if (!l) return j ? 'deleted' : 'none';
  if (!j) return 'added';
  if (l.isDir) return 'same';
  if (j.trusted && statMatches(l, j)) return 'same';
  if (l.fingerprint === undefined) return 'changed';
  return l.fingerprint === j.fingerprint ? 'same' : 'changed';
}

export function remoteState(r: RemoteEntry | undefined, j: JournalEntry | undefined): SideState {
  if (!r) return j ? 'deleted' : 'none';
  if (!j) return 'added';
  if (r.id !== j.remoteId) return r.isDir || r.fingerprint !== j.fingerprint ? 'changed' : 'same';
  if (r.isDir) return 'same';
  return r.fingerprint === j.fingerprint ? 'same' : 'changed';
}

export function statMatches(l: LocalEntry, j: JournalEntry): boolean {
  return l.size === j.size && l.mtimeMs === j.mtimeMs && l.fileId === j.fileId;
}

/** The journal row recording that `l` and `r` agree. */
export function agreed(key: string, l: LocalEntry, r: RemoteEntry, now: number, fingerprint: string | null = r.fingerprint): JournalEntry {
  return {
    key,
    path: r.path,
    isDir: r.isDir,
    size: r.isDir ? 0 : l.size,
    mtimeMs: r.isDir ? 0 : l.mtimeMs,
    fileId: l.fileId,
    fingerprint: r.isDir ? null : fingerprint,
    remoteId: r.id,
    trusted: r.isDir || now - l.mtimeMs > MTIME_TRUST_MS,
  };
}

/** Does recording agreement change the journal row (new stat, id, spelling or trust)? */
function needsRecord(j: JournalEntry, l: LocalEntry, r: RemoteEntry, now: number): boolean {
  const next = agreed(j.key, l, r, now, j.fingerprint);
  return (
    next.path !== j.path ||
    next.remoteId !== j.remoteId ||
    next.fileId !== j.fileId ||
    next.size !== j.size ||
    next.mtimeMs !== j.mtimeMs ||
    next.trusted !== j.trusted
  );
}

export function decideTwoWay(ctx: DecideContext, key: string, l: LocalEntry | undefined, jRow: JournalEntry | undefined, r: RemoteEntry | undefined): Decision {
  let j = jRow;
  // Different kinds on the two sides (a folder here, a file there): the local one steps aside.
  if (l && r && l.isDir !== r.isDir) return conflict(ctx, key, l, r, { uploadCopy: false, takeRemote: false });

  // Another cloud entry took this name while the agreed one lives on elsewhere (moved, and a new file
  // put in its place): the journal row is that moved entry's, not this one's. Both sides are "new"
  // here: equal contents are adopted, different ones kept both (never a download over local work).
  if (j && r && r.id !== j.remoteId && ctx.isRemoteAlive(j.remoteId)) j = undefined;

  const ls = localState(l, j);
  const rs = remoteState(r, j);
  const ops: Op[] = [];
  const done = (local: boolean, remote: boolean): Decision => ({ ops, local, remote });

  if (ls === 'none' && rs === 'none') return done(false, false);
  if (ls === 'added' && rs === 'none') return create(ctx, key, l!, 'remote');
  if (ls === 'none' && rs === 'added') return create(ctx, key, r!, 'local');

  if (ls === 'added' && rs === 'added') {
    if (l!.isDir || (l!.fingerprint !== undefined && l!.fingerprint === r!.fingerprint)) {
      ops.push({ kind: 'record', entry: agreed(key, l!, r!, ctx.now) });
      return done(true, true);
    }
    return conflict(ctx, key, l!, r!, { uploadCopy: true, takeRemote: true });
  }

  if (ls === 'deleted' && rs === 'deleted') {
    ops.push({ kind: 'forget', key });
    return done(false, false);
  }

  if (ls === 'deleted') {
    // Deleted here; the remote entry is as agreed, or changed.
    if (r!.isDir) {
      if (rs === 'same' && !ctx.hasRemoteSurvivor(key)) {
        ops.push({ kind: 'deleteRemote', key, path: r!.path, remoteId: r!.id, isDir: true });
        return done(false, false);
      }
      return create(ctx, key, r!, 'local');
    }
    if (rs === 'same') {
      ops.push({ kind: 'deleteRemote', key, path: r!.path, remoteId: r!.id, isDir: false });
      return done(false, false);
    }
    return create(ctx, key, r!, 'local'); // changed remotely after the local delete: the change wins
  }

  if (rs === 'deleted' && ctx.isRemoteAlive(j!.remoteId)) {
    // Not deleted: moved remotely to a place this pass cannot follow. The local entry is kept and
    // goes up again here (a copy), rather than being deleted on the strength of a move.
    return create(ctx, key, l!, 'remote');
  }

  if (rs === 'deleted') {
    if (l!.isDir) {
      if (ls === 'same' && !ctx.hasLocalSurvivor(key)) {
        ops.push({ kind: 'deleteLocal', key, path: l!.path, expect: expectOf(l!) });
        return done(false, false);
      }
      return create(ctx, key, l!, 'remote');
    }
    if (ls === 'same') {
      ops.push({ kind: 'deleteLocal', key, path: l!.path, expect: expectOf(l!) });
      return done(false, false);
    }
    return create(ctx, key, l!, 'remote'); // changed here after the remote delete: the change wins
  }

  // Both present, both known to the journal.
  const lEntry = l!;
  const rEntry = r!;
  const jEntry = j!;
  const rename = spellingOps(ctx, key, lEntry, jEntry, rEntry);
  ops.push(...rename.ops);
  const remoteNow = rename.remote;
  const localPath = rename.localPath;
  if (lEntry.isDir) {
    if (rename.ops.length > 0 || needsRecord(jEntry, lEntry, remoteNow, ctx.now)) ops.push({ kind: 'record', entry: agreed(key, lEntry, remoteNow, ctx.now) });
    return done(true, true);
  }
  // Read now (observe.ts), the local file's own fingerprint wins over the journal's: the cloud may have
  // fingerprinted unchanged content again at a new chunk size.
  const localFingerprint = lEntry.fingerprint ?? (ls === 'same' ? jEntry.fingerprint : undefined);
  if (ls === 'same' && rs === 'same') {
    if (rename.ops.length > 0 || needsRecord(jEntry, lEntry, remoteNow, ctx.now)) ops.push({ kind: 'record', entry: agreed(key, lEntry, remoteNow, ctx.now) });
    return done(true, true);
  }
  if (localFingerprint !== undefined && localFingerprint === remoteNow.fingerprint) {
    // Both hold the same content now (changed alike, or an interrupted transfer finished): agree.
    ops.push({ kind: 'record', entry: agreed(key, lEntry, remoteNow, ctx.now) });
    return done(true, true);
  }
  if (ls === 'same') {
    ops.push({ kind: 'download', key, path: localPath, remote: remoteNow, expect: expectOf(lEntry) });
    return done(true, true);
  }
  if (rs === 'same') {
    ops.push({ kind: 'upload', key, path: localPath, remotePath: remoteNow.path, local: { ...lEntry, path: localPath }, replace: { id: remoteNow.id, ifMatch: remoteNow.fingerprint } });
    return done(true, true);
  }
  return conflict(ctx, key, { ...lEntry, path: localPath }, remoteNow, { uploadCopy: true, takeRemote: true }, ops);
}

/** A local file held back by the tenant's rules steps aside for a cloud folder of its name (no upload). */
export function decideTypeClash(ctx: DecideContext, key: string, l: LocalEntry, r: RemoteEntry): Decision {
  return conflict(ctx, key, l, r, { uploadCopy: false, takeRemote: false });
}

/** An entry of one side created on the other: a folder, an upload or a download. */
export function create(ctx: DecideContext, key: string, from: LocalEntry | RemoteEntry, side: 'local' | 'remote'): Decision {
  if (side === 'remote') {
    const l = from as LocalEntry;
    const path = ctx.remotePathOf(key);
    if (path === null) return { ops: [], local: true, remote: false };
    const op: Op = l.isDir ? { kind: 'mkdirRemote', key, path, local: l } : { kind: 'upload', key, path: l.path, remotePath: path, local: l, replace: null };
    return { ops: [op], local: true, remote: true };
  }
  const r = from as RemoteEntry;
  const path = ctx.localPathOf(key);
  // Nothing can go under a local file (or a folder that is not there to hold it).
  if (path === null || !ctx.isLocalFolder(parentKey(key))) return { ops: [], local: false, remote: true };
  const op: Op = r.isDir ? { kind: 'mkdirLocal', key, path, remote: r } : { kind: 'download', key, path, remote: r, expect: null };
  return { ops: [op], local: true, remote: true };
}

/**
 * Both sides changed (or hold different kinds): the local entry is renamed to its conflict-copy name;
 * the remote content then comes down under the original name (`takeRemote`), and the copy goes up as
 * a new file (`uploadCopy`, files only: a folder's copy goes up with the next pass).
 */
function conflict(ctx: DecideContext, key: string, l: LocalEntry, r: RemoteEntry, how: { uploadCopy: boolean; takeRemote: boolean }, ops: Op[] = []): Decision {
  const parent = parentKey(key);
  const localParent = ctx.localPathOf(parent);
  const remoteParent = ctx.remotePathOf(parent);
  if (localParent === null || remoteParent === null) return { ops, local: true, remote: true };
  const copyName = conflictCopyName(baseName(l.path).normalize('NFC'), l.isDir, ctx.account, ctx.now, (candidate) => ctx.isNameTaken(parent, candidate));
  const toPath = joinPath(localParent, copyName);
  ops.push({ kind: 'conflictLocal', key, path: l.path, toPath, expect: expectOf(l) });
  const copyKey = pathKey(toPath);
  if (how.uploadCopy && !l.isDir) {
    ops.push({ kind: 'upload', key: copyKey, path: toPath, remotePath: joinPath(remoteParent, copyName), local: l, replace: null });
  }
  if (how.takeRemote && !r.isDir) ops.push({ kind: 'download', key, path: l.path, remote: r, expect: null });
  return { ops, local: true, remote: true };
}

/**
 * Case-only (or NFC/NFD) differences of spelling between the sides, for an entry present on both:
 * the side that changed the agreed spelling renames the other; both changed → the local one wins.
 * Returns the remote entry as it will be spelled.
 */
export function spellingOps(
  ctx: DecideContext,
  key: string,
  l: LocalEntry,
  j: JournalEntry,
  r: RemoteEntry,
  localWins = false,
): { ops: Op[]; remote: RemoteEntry; localPath: string } {
  const unchanged = { ops: [], remote: r, localPath: l.path };
  if (ctx.noMove.has(key)) return unchanged;
  const localName = baseName(l.path).normalize('NFC');
  const agreedName = baseName(j.path);
  const remoteName = baseName(r.path);
  if (localName === remoteName) return unchanged;
  if (localName !== agreedName || localWins) {
    const parent = ctx.remotePathOf(parentKey(key));
    if (parent === null) return unchanged;
    const toPath = joinPath(parent, localName);
    return { ops: [{ kind: 'moveRemote', fromKey: key, toKey: key, remoteId: r.id, fromPath: r.path, toPath, isDir: r.isDir, journalKey: key }], remote: { ...r, path: toPath }, localPath: l.path };
  }
  const parent = ctx.localPathOf(parentKey(key));
  if (parent === null) return unchanged;
  const toPath = joinPath(parent, remoteName);
  if (ctx.isLocalPathOccupied(toPath)) return unchanged;
  return { ops: [{ kind: 'moveLocal', fromKey: key, toKey: key, fromPath: l.path, toPath, expect: expectOf(l), journalPath: r.path }], remote: r, localPath: toPath };
}
