/**
 * The local side's careful operations: nothing is overwritten or removed unless it is exactly what
 * the plan expected, and what is replaced passes through the sync area's trash, checked again there,
 * so a write that lands between the check and the change is put back instead of lost.
 */
import { baseName, parentPath } from './names';
import type { Expect, RemoteEntry } from './model';
import { LocalFsError, type LocalFs, type LocalStat, type RemoteApi } from './ports';
import { conflictCopyName } from './conflict-name';

/** Is the entry at a path (stat) the one the plan saw (expect)? Folders: same id. */
export function matches(stat: LocalStat | null, expect: Expect | Pick<LocalStat, 'size' | 'mtimeMs' | 'fileId' | 'isDir'>): boolean {
  if (!stat || stat.isSymlink || stat.isDir !== expect.isDir) return false;
  if (stat.isDir) return stat.fileId === expect.fileId;
  return stat.size === expect.size && stat.mtimeMs === expect.mtimeMs && stat.fileId === expect.fileId;
}

/**
 * Moves `path` into the trash and checks it there. Returns the trash path, or null when the entry was
 * not the expected one (then it is back where it was, or next to it as a conflict copy if its place
 * was taken meanwhile).
 */
async function takeAside(fs: LocalFs, path: string, expect: Expect, now: number): Promise<string | null> {
  const trash = fs.trashPath(path);
  await fs.renameNoReplace(path, trash);
  if (matches(await fs.stat(trash), expect)) return trash;
  await putBack(fs, trash, path, now);
  return null;
}

/** Returns a file taken aside to `path`; if something took its place meanwhile, next to it under a conflict name. */
export async function putBack(fs: LocalFs, trash: string, path: string, now: number): Promise<void> {
  try {
    await fs.renameNoReplace(trash, path);
  } catch (error) {
    if (!(error instanceof LocalFsError) || error.code !== 'exists') throw error;
    const dir = parentPath(path);
    const name = conflictCopyName(baseName(path), false, '本机', now, () => false);
    await fs.renameNoReplace(trash, dir === '' ? name : `${dir}/${name}`);
  }
}

/**
 * Removes a local file or an (empty) folder if it is the expected one. Returns false when it was
 * not (changed, gone, or a folder that still holds something): nothing is removed then. A file is
 * moved to `keepAs` (the deletion event's keeping place) instead of removed when one is given.
 */
export async function removeLocal(fs: LocalFs, path: string, expect: Expect, now: number, keepAs: string | null = null): Promise<boolean> {
  const stat = await fs.stat(path);
  if (!matches(stat, expect)) return false;
  if (expect.isDir) {
    try {
      await fs.rmdir(path);
      return true;
    } catch (error) {
      if (error instanceof LocalFsError && (error.code === 'exists' || error.code === 'missing')) return false;
      throw error;
    }
  }
  const trash = await takeAside(fs, path, expect, now);
  if (trash === null) return false;
  if (keepAs !== null) {
    try {
      await fs.renameNoReplace(trash, keepAs);
      return true;
    } catch {
      // not kept (the keeping place refused it): the content is the agreed one, which the cloud holds
    }
  }
  await fs.unlink(trash);
  return true;
}

/**
 * Downloads a remote file to `path`: into a temporary file first, checked against the listed
 * fingerprint (a file changed meanwhile is left for the next pass), then put in place only if the
 * place still holds what the plan expected (nothing, or that exact file, which goes through the
 * trash). Returns the new file's stat, or null when it stepped back.
 */
export async function downloadInto(
  fs: LocalFs,
  remote: RemoteApi,
  path: string,
  entry: RemoteEntry,
  expect: Expect | null,
  chunkSize: number,
  now: number,
  signal: AbortSignal,
): Promise<LocalStat | null> {
  const parent = parentPath(path);
  if (parent !== '' && !(await fs.stat(parent))?.isDir) return null;
  const temp = await fs.writeTemp(await remote.download(entry.id, signal), signal);
  let placed = false;
  try {
    const digests = await fs.digest(temp, chunkSize, signal);
    if (digests.fingerprint !== entry.fingerprint) return null; // changed on the server since it was listed
    const current = await fs.stat(path);
    if (expect === null ? current !== null : !matches(current, expect)) return null;
    const trash = expect === null ? null : await takeAside(fs, path, expect, now);
    if (expect !== null && trash === null) return null;
    try {
      await fs.renameNoReplace(temp, path);
      placed = true;
    } catch (error) {
      // Something new took the place meanwhile: it stays. What was taken aside is the agreed content,
      // which the server keeps in the file's versions, so it goes; any other failure puts it back.
      if (error instanceof LocalFsError && error.code === 'exists') {
        if (trash !== null) await fs.unlink(trash);
        return null;
      }
      if (trash !== null) await putBack(fs, trash, path, now);
      throw error;
    }
    if (trash !== null) await fs.unlink(trash);
    return fs.stat(path);
  } finally {
    if (!placed) await fs.unlink(temp).catch(() => undefined);
  }
}

/**
 * After a crash: a file left in the trash is either agreed content whose replacement or delete did
 * not finish (its fingerprint is in the journal, the server has it: removed) or a write that raced
 * the engine (put back at its place, or next to it as a conflict copy).
 */
export async function recoverTrash(fs: LocalFs, agreedFingerprints: () => Promise<ReadonlySet<string>>, chunkSize: number, now: number, signal: AbortSignal): Promise<void> {
  const leftovers = await fs.listTrash();
  if (leftovers.length === 0) return;
  const agreed = await agreedFingerprints();
  for (const { trashPath, originalPath } of leftovers) {
    const stat = await fs.stat(trashPath);
    if (!stat) continue;
    if (!stat.isDir) {
      const digests = await fs.digest(trashPath, chunkSize, signal);
      if (agreed.has(digests.fingerprint)) {
        await fs.unlink(trashPath);
        continue;
      }
    }
    const parent = parentPath(originalPath);
    if (parent !== '' && !(await fs.stat(parent))?.isDir) await mkdirs(fs, parent);
    await putBack(fs, trashPath, originalPath, now);
  }
}

export async function mkdirs(fs: LocalFs, path: string): Promise<void> {
  let so = '';
  for (const part of path.split('/')) {
    so = so === '' ? part : `${so}/${part}`;
    const stat = await fs.stat(so);
    if (!stat) await fs.mkdir(so);
  }
}
