/**
 * One upload or one download of the executor's plan (executor.ts runTransfers runs them a few at a
 * time): each checks the file it expects before it acts and records the agreement after.
 */
import type { ExecuteDeps } from './executor';
import type { Op } from './model';
import { MTIME_TRUST_MS } from './model';
import { baseName, pathKey } from './names';
import { LocalFsError, RemoteError, type LocalStat } from './ports';
import { downloadInto, matches } from './local-ops';
import { changedReasons, realSleep, UPLOAD_ATTEMPTS, waitUntilSettled, type Sleep } from './settle';
import { guarded, parentIdOf, type Outcome } from './op-guard';

export async function upload(op: Extract<Op, { kind: 'upload' }>, deps: ExecuteDeps): Promise<Outcome> {
  const { fs, log, signal } = deps;
  const sleep = deps.sleep ?? realSleep;
  return guarded(deps, op.path, '上传', async () => {
    let before = await fs.stat(op.path);
    if (!before || before.isDir || before.isSymlink) {
      log.retryLater(op.path, '本地有新的改动，下次同步时重新处理'); // gone (or replaced by a folder) since the scan
      return 'skipped';
    }
    // Changed since the scan: still a local change to send, once it stops changing.
    let changedSinceScan = !matches(before, op.local);
    if (changedSinceScan) {
      const settled = await settleOrFail(op.path, deps, sleep, 1);
      if (settled === null) return 'skipped';
      before = settled;
    }
    const parentId = parentIdOf(deps, op.key);
    if (parentId === null) {
      log.failed(op.path, '上传', `“${op.path}”的云端上级文件夹不存在：下次同步会重新创建后再上传`);
      return 'skipped';
    }
    let replace = op.replace;
    /** Some version reached the cloud in this pass (counted once, whatever follows). */
    let stored = false;
    for (let attempt = 1; ; attempt++) {
      log.begin(op.path, '上传', 'uploading', before.size);
      const resumable = await deps.journal.getInflight(op.key);
      const at = before;
      const resume = resumable && resumable.size === at.size && resumable.mtimeMs === at.mtimeMs && resumable.fileId === at.fileId ? resumable : null;
      // The scan's digests describe the scanned bytes: of no use once the file changed.
      const scanned = changedSinceScan ? undefined : deps.digests.get(pathKey(op.path));
      const known = scanned && scanned.chunkSize === deps.chunkSize ? scanned : null;
      let file: { id: string; fingerprint: string };
      try {
        file = await deps.remote.upload(
          await fs.openBlob(op.path),
          { parentId, name: baseName(op.remotePath), replace },
          known,
          {
            bytesDone: (bytes) => log.progress(op.path, bytes),
            resume,
            save: (state) => deps.journal.putInflight({ key: op.key, size: at.size, mtimeMs: at.mtimeMs, fileId: at.fileId, ...state }),
          },
          signal,
        );
      } catch (error) {
        if (signal.aborted || !(error instanceof RemoteError || error instanceof LocalFsError)) throw error;
        if (error instanceof RemoteError && (error.kind === 'transient' || error.kind === 'unauthorized')) throw error;
        // A refusal or conflict on a file that changed meanwhile is the change's doing (the bytes read
        // no longer matched): upload it again once it settles, a few times at most.
        const now = await fs.stat(op.path);
        if (!now || now.isDir || matches(now, at)) throw error;
        deps.trace?.(`upload ${op.path}: the file changed during the upload (attempt ${attempt})`);
        await deps.journal.dropInflight(op.key);
        if (attempt >= UPLOAD_ATTEMPTS) {
          log.failed(op.path, '上传', changedReasons.changedEachTime(op.path, attempt), now.size);
          return stored ? 'changed' : 'skipped';
        }
        const settled = await settleOrFail(op.path, deps, sleep, attempt);
        if (settled === null) return stored ? 'changed' : 'skipped';
        before = settled;
        changedSinceScan = true;
        continue;
      }
      if (!stored) log.count('uploaded');
      stored = true;
      deps.remoteIds.set(op.key, file.id);
      await deps.journal.upsert({
        key: op.key,
        path: op.remotePath,
        isDir: false,
        size: at.size,
        mtimeMs: at.mtimeMs,
        fileId: at.fileId,
        fingerprint: file.fingerprint,
        remoteId: file.id,
        trusted: deps.now() - at.mtimeMs > MTIME_TRUST_MS,
      });
      await deps.journal.dropInflight(op.key);
      // Written while its bytes were being read: what reached the cloud may mix two versions. It is
      // sent again (a new version of what was just stored) once it settles.
      const after = await fs.stat(op.path);
      const changedDuring = after !== null && !after.isDir && !matches(after, at);
      if (changedDuring && attempt < UPLOAD_ATTEMPTS) {
        deps.trace?.(`upload ${op.path}: the file changed during the upload (attempt ${attempt}), sent again`);
        replace = { id: file.id, ifMatch: file.fingerprint };
        const settled = await settleOrFail(op.path, deps, sleep, attempt);
        if (settled === null) return 'changed';
        before = settled;
        changedSinceScan = true;
        continue;
      }
      log.succeeded(op.path, op.replace ? '上传新版本' : '上传', at.size);
      // Still changing after the last attempt: the next pass (run at once by --once) sends it.
      if (changedDuring) log.unstable(op.path);
      return 'changed';
    }
  });
}

/** Waits for a changed file to settle; null (and the fail list, or the next pass when it is gone) when it does not. */
async function settleOrFail(path: string, deps: ExecuteDeps, sleep: Sleep, attempts: number): Promise<LocalStat | null> {
  deps.log.begin(path, '等待写入完成', 'unstable');
  const settled = await waitUntilSettled(deps.fs, path, sleep, deps.signal);
  if (settled === null) {
    deps.log.retryLater(path, '本地有新的改动，下次同步时重新处理'); // deleted, or a folder now
    return null;
  }
  if (settled === 'busy') {
    deps.log.failed(path, '上传', attempts > 1 ? changedReasons.changedEachTime(path, attempts) : changedReasons.stillWriting(path));
    return null;
  }
  return settled;
}

export async function download(op: Extract<Op, { kind: 'download' }>, deps: ExecuteDeps): Promise<Outcome> {
  const { log } = deps;
  return guarded(deps, op.path, '下载', async () => {
    log.begin(op.path, '下载', 'downloading', op.remote.size);
    const stat = await downloadInto(deps.fs, deps.remote, op.path, op.remote, op.expect, deps.chunkSize, deps.now(), deps.signal);
    if (!stat) {
      log.retryLater(op.path, '有新的改动，下次同步时重新处理');
      return 'skipped';
    }
    await deps.journal.upsert({
      key: op.key,
      path: op.remote.path,
      isDir: false,
      size: stat.size,
      mtimeMs: stat.mtimeMs,
      fileId: stat.fileId,
      fingerprint: op.remote.fingerprint,
      remoteId: op.remote.id,
      trusted: deps.now() - stat.mtimeMs > MTIME_TRUST_MS,
    });
    log.succeeded(op.path, '下载', stat.size);
    log.count('downloaded');
    return 'changed';
  });
}
