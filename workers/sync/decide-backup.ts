/**
 * Backup (local → cloud): the cloud folder follows the local one and nothing comes down.
 *  - new or changed local content is uploaded; a cloud file of that name gets it as a new version
 *    (whatever the cloud held stays in the file's versions);
 *  - a cloud copy deleted or changed by someone else while the local file is unchanged is put back
 *    (as a new version; usually instant: the server already stores the content);
 *  - a local delete leaves the cloud copy alone, unless `deleteRemote` is on: then an unchanged cloud
 *    copy goes to the recycle bin (a cloud copy someone changed meanwhile is left alone);
 *  - cloud entries the journal never knew are someone else's: left alone.
 */
import type { JournalEntry, LocalEntry, Op, RemoteEntry } from './model';
import { agreed, create, localState, remoteState, spellingOps, type DecideContext, type Decision } from './decide-two-way';
import { conflictCopyName } from './conflict-name';
import { baseName, joinPath, pathKey } from './names';
import { parentKey } from './tree';

export function decideBackup(
  ctx: DecideContext,
  key: string,
  l: LocalEntry | undefined,
  j: JournalEntry | undefined,
  r: RemoteEntry | undefined,
  deleteRemote: boolean,
): Decision {
  const ops: Op[] = [];
  const done = (local: boolean, remote: boolean): Decision => ({ ops, local, remote });
  if (l && r && l.isDir !== r.isDir) {
    // The cloud holds the other kind under this name: it steps aside under a conflict-copy name,
    // then the local entry is backed up in its place.
    const parent = parentKey(key);
    const remoteParent = ctx.remotePathOf(parent);
    if (remoteParent === null) return done(true, true);
    const name = conflictCopyName(baseName(r.path), r.isDir, ctx.account, ctx.now, (candidate) => ctx.isNameTaken(parent, candidate));
    const toPath = joinPath(remoteParent, name);
    ops.push({ kind: 'moveRemote', fromKey: key, toKey: pathKey(toPath), remoteId: r.id, fromPath: r.path, toPath, isDir: r.isDir, journalKey: key });
    const created = create(ctx, key, l, 'remote');
    ops.push(...created.ops);
    return done(true, true);
  }
  const ls = localState(l, j);
  const rs = remoteState(r, j);

  if (!l) {
    if (!j) return done(false, Boolean(r)); // someone else's cloud entry
    if (rs === 'same' && deleteRemote && !(r!.isDir && ctx.hasRemoteSurvivor(key))) {
      ops.push({ kind: 'deleteRemote', key, path: r!.path, remoteId: r!.id, isDir: r!.isDir });
      return done(false, false);
    }
    ops.push({ kind: 'forget', key });
    return done(false, Boolean(r));
  }

  if (!r) return create(ctx, key, l, 'remote'); // new here, or deleted in the cloud: (re)create it

  const spelling = j ? spellingOps(ctx, key, l, j, r, true) : { ops: [], remote: r, localPath: l.path };
  ops.push(...spelling.ops);
  const remoteNow = spelling.remote;
  if (l.isDir) {
    if (!j || spelling.ops.length > 0 || j.remoteId !== r.id || j.fileId !== l.fileId) ops.push({ kind: 'record', entry: agreed(key, l, remoteNow, ctx.now) });
    return done(true, true);
  }
  // Read now (observe.ts), the local file's own fingerprint wins over the journal's: the cloud may have
  // fingerprinted unchanged content again at a new chunk size.
  const localFingerprint = l.fingerprint ?? (ls === 'same' ? j!.fingerprint : undefined);
  if (localFingerprint !== undefined && localFingerprint === remoteNow.fingerprint) {
    if (!(ls === 'same' && rs === 'same') || spelling.ops.length > 0 || !j!.trusted || j!.mtimeMs !== l.mtimeMs || j!.size !== l.size || j!.fileId !== l.fileId || j!.remoteId !== r.id) {
      ops.push({ kind: 'record', entry: agreed(key, l, remoteNow, ctx.now, localFingerprint) });
    }
    return done(true, true);
  }
  ops.push({ kind: 'upload', key, path: l.path, remotePath: remoteNow.path, local: l, replace: { id: remoteNow.id, ifMatch: null } });
  return done(true, true);
}
