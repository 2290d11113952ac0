/**
 * Carries out a plan, one operation at a time (transfers a few at a time), and records each
 * agreement in the journal right after the side it changed confirmed it. Every operation checks
 * what it expects before it acts (the local file's size, time and id; the remote fingerprint, sent
 * as ifMatch), so a change made after the scan makes the operation step back, never overwrite: the
 * next pass sees the change and plans again.
 *
 * A crash between a change and its journal row is harmless by construction: the next pass finds
 * both sides equal where the journal is behind, and records it (decide-two-way.ts "adopt").
 *
 * Failures: a refusal (name, lock, quota, no permission, file in use) goes to the fail list and the
 * pass goes on; a conflict or a vanished entry is left to the next pass; no answer from the server
 * stops the pass (PassInterrupted), to be retried later; a failed move stops the pass too, because
 * what was planned after it assumed it (the engine plans again without that move).
 *
 * One upload or download: transfer-ops.ts; how a failure is sorted (guarded): op-guard.ts.
 */
import { createHash } from 'node:crypto';
import { subtreeOf, treeDigestInput } from '../../common/sync/tree-digest';
import type { JournalEntry, Op, RemoteEntry } from './model';
import { baseName, isInside, joinPath, parentPath } from './names';
import { LocalFsError, RemoteError, type FileDigests, type Journal, type LocalFs, type LocalStat, type RemoteApi } from './ports';
import { batchUnits, uploadBatch } from './upload-batch';
import type { SyncLog } from './sync-log';
import { removeLocal, matches } from './local-ops';
import { CLASH_MARK } from './name-clash';
import type { Sleep } from './settle';
import { guarded, parentIdOf, PassInterrupted, type Outcome } from './op-guard';
import { download, upload } from './transfer-ops';

export { PassInterrupted, type Outcome };

export interface ExecuteDeps {
  fs: LocalFs;
  remote: RemoteApi;
  journal: Journal;
  log: SyncLog;
  rootId: string;
  now(): number;
  /** The remote listing the plan was made from (delete preconditions are computed from it). */
  listing: readonly RemoteEntry[];
  /** Remote ids by key, from the listing (kept current as folders are created and moved). */
  remoteIds: Map<string, string>;
  /** Digests read by the scan, by key: an upload does not read the file twice. */
  digests: ReadonlyMap<string, FileDigests>;
  chunkSize: number;
  transferConcurrency: number;
  signal: AbortSignal;
  /** Each operation as it starts (the simulation's trace). */
  trace?: (line: string) => void;
  /** Checked before each operation starts: true → the rest waits for the next pass (stop, pause). */
  shouldStop?: () => boolean;
  /** Waiting for a changed file to settle (real timers unless given: the simulation's clock). */
  sleep?: Sleep;
  /** Each delete done (the pass records them as one deletion event). */
  deletions?: DeletionSink;
}

/** What a deleted entry leaves behind for its deletion event. */
export interface DeletedItem {
  side: 'local' | 'remote';
  path: string;
  isDir: boolean;
  /** The cloud entry (now in the recycle bin). */
  remoteId?: string;
  /** Where the local file is kept (LocalFs.keptPath). */
  keptAs?: string;
}

export interface DeletionSink {
  /** Where a local file about to be deleted is kept (null: nowhere). */
  keepAs(path: string): string | null;
  deleted(item: DeletedItem): void;
}

export interface ExecuteResult {
  /** Operations that changed something on a side (not journal-only ones). */
  changed: number;
  /** A move failed: plan again, without moving this journal key. */
  failedMove: string | null;
}

const REMOVE_BATCH = 1000;
const RECORD_BATCH = 2000;

export async function execute(ops: readonly Op[], deps: ExecuteDeps): Promise<ExecuteResult> {
  const result: ExecuteResult = { changed: 0, failedMove: null };
  const removals = ops.filter((op) => op.kind === 'deleteRemote');
  const transfers: Op[] = [];
  let removalsDone = false;
  // A folder renamed here (a case-only rename) changes the local paths of what was planned under it
  // (planned children first, before the folder's own rename was known): they follow it.
  const renamed: Array<[string, string]> = [];
  const follow = (path: string) => {
    for (const [from, to] of renamed) if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
    return path;
  };
  for (let i = 0; i < ops.length; i++) {
    const op = renamed.length > 0 ? followRenames(ops[i]!, follow) : ops[i]!;
    deps.signal.throwIfAborted();
    if (deps.shouldStop?.()) break;
    if (op.kind === 'record') {
      // A run of journal-only records (an adopted tree) goes in one transaction.
      const run: JournalEntry[] = [];
      while (i < ops.length && ops[i]!.kind === 'record' && run.length < RECORD_BATCH) run.push((ops[i++] as Extract<Op, { kind: 'record' }>).entry);
      i--;
      if (transfers.length > 0) result.changed += await runTransfers(transfers.splice(0), deps);
      for (const entry of run) deps.trace?.(`record ${entry.path} (${entry.remoteId})`);
      await deps.journal.upsertMany(run);
      continue;
    }
    if (op.kind === 'deleteRemote') {
      if (!removalsDone) {
        removalsDone = true;
        result.changed += await removeRemote(removals as Array<Extract<Op, { kind: 'deleteRemote' }>>, deps);
      }
      continue;
    }
    if (op.kind === 'upload' || op.kind === 'download') {
      transfers.push(op);
      continue;
    }
    if (transfers.length > 0) {
      result.changed += await runTransfers(transfers.splice(0), deps);
    }
    const outcome = await runOne(op, deps);
    if (outcome === 'changed' && op.kind === 'moveLocal' && op.expect.isDir) renamed.unshift([op.fromPath, op.toPath]);
    if (outcome === 'moveFailed') {
      result.failedMove = op.kind === 'moveRemote' ? op.journalKey : (op as { fromKey: string }).fromKey;
      return result;
    }
    if (outcome === 'changed') result.changed++;
  }
  if (transfers.length > 0 && !deps.shouldStop?.()) result.changed += await runTransfers(transfers, deps);
  return result;
}

/** The op with its local paths moved along a folder rename done earlier in this plan. */
function followRenames(op: Op, follow: (path: string) => string): Op {
  switch (op.kind) {
    case 'moveLocal':
      return { ...op, fromPath: follow(op.fromPath), toPath: follow(op.toPath) };
    case 'conflictLocal':
      return { ...op, path: follow(op.path), toPath: follow(op.toPath) };
    case 'deleteLocal':
    case 'mkdirLocal':
    case 'download':
      return { ...op, path: follow(op.path) };
    case 'mkdirRemote':
      return { ...op, local: { ...op.local, path: follow(op.local.path) } };
    case 'upload':
      return { ...op, path: follow(op.path), local: { ...op.local, path: follow(op.local.path) } };
    default:
      return op;
  }
}

export function describeOp(op: Op): string {
  switch (op.kind) {
    case 'record':
      return `record ${op.entry.path} (${op.entry.remoteId})`;
    case 'forget':
      return `forget ${op.key}`;
    case 'rebase':
      return `rebase ${op.fromKey} → ${op.toKey}`;
    case 'moveRemote':
      return `moveRemote ${op.fromPath} → ${op.toPath}`;
    case 'moveLocal':
      return `moveLocal ${op.fromPath} → ${op.toPath}`;
    case 'conflictLocal':
      return `conflictLocal ${op.path} → ${op.toPath}`;
    case 'deleteLocal':
      return `deleteLocal ${op.path}`;
    case 'deleteRemote':
      return `deleteRemote ${op.path} (${op.remoteId})`;
    case 'mkdirLocal':
      return `mkdirLocal ${op.path}`;
    case 'mkdirRemote':
      return `mkdirRemote ${op.path}`;
    case 'upload':
      return `upload ${op.path} → ${op.remotePath}${op.replace ? ` replacing ${op.replace.id}` : ''}`;
    case 'download':
      return `download ${op.remote.path} (${op.remote.id}) → ${op.path}${op.expect ? ' over the local file' : ''}`;
  }
}

async function runOne(op: Op, deps: ExecuteDeps): Promise<Outcome> {
  const { journal, log } = deps;
  deps.trace?.(describeOp(op));
  switch (op.kind) {
    case 'record':
      await journal.upsert(op.entry);
      return 'journal';
    case 'forget':
      await journal.forget(op.key);
      return 'journal';
    case 'rebase':
      await journal.rebase(op.fromKey, op.toKey, op.toPath);
      moveIds(deps.remoteIds, op.fromKey, op.toKey);
      return 'journal';
    case 'moveRemote':
      return guarded(deps, op.toPath, '移动', async () => {
        const parentId = parentIdOf(deps, op.toKey);
        if (parentId === null) return 'moveFailed';
        try {
          await deps.remote.move(op.remoteId, parentId, baseName(op.toPath), deps.signal);
        } catch (error) {
          if (error instanceof RemoteError && error.kind !== 'transient' && error.kind !== 'unauthorized') {
            log.failed(op.toPath, '移动', `移动到“${op.toPath}”失败：${error.message}`);
            return 'moveFailed';
          }
          throw error;
        }
        moveIds(deps.remoteIds, op.fromKey, op.toKey);
        await journal.rebase(op.journalKey, op.toKey, op.toPath);
        log.succeeded(op.toPath, op.fromKey === op.toKey ? '重命名' : '移动');
        log.count('moved');
        return 'changed';
      });
    case 'moveLocal':
      return guarded(deps, op.toPath, '移动', async () => {
        const now = await deps.fs.stat(op.fromPath);
        if (!matches(now, op.expect)) return 'moveFailed';
        try {
          await deps.fs.renameNoReplace(op.fromPath, op.toPath);
        } catch (error) {
          if (error instanceof LocalFsError) {
            log.failed(op.toPath, '移动', error.message);
            return 'moveFailed';
          }
          throw error;
        }
        await journal.rebase(op.fromKey, op.toKey, op.journalPath);
        log.succeeded(op.toPath, op.fromKey === op.toKey ? '重命名' : '移动');
        log.count('moved');
        return 'changed';
      });
    case 'conflictLocal':
      return guarded(deps, op.path, '冲突副本', async () => {
        const now = await deps.fs.stat(op.path);
        if (!matches(now, op.expect)) return 'skipped';
        await deps.fs.renameNoReplace(op.path, op.toPath);
        log.succeeded(op.toPath, op.clash ? `${CLASH_MARK[op.clash]}，已改名（原名“${baseName(op.path)}”）` : '冲突副本');
        log.count('conflicts');
        return 'changed';
      });
    case 'deleteLocal':
      return guarded(deps, op.path, '删除', async () => {
        const keepAs = op.expect.isDir ? null : (deps.deletions?.keepAs(op.path) ?? null);
        const done = await removeLocal(deps.fs, op.path, op.expect, deps.now(), keepAs);
        if (!done) return 'skipped';
        deps.deletions?.deleted({ side: 'local', path: op.path, isDir: op.expect.isDir, ...(keepAs !== null && { keptAs: keepAs }) });
        await journal.forget(op.key);
        log.succeeded(op.path, '删除（本地）');
        log.count('deleted');
        return 'changed';
      });
    case 'mkdirLocal':
      return guarded(deps, op.path, '新建文件夹', async () => {
        const existing = await deps.fs.stat(op.path);
        if (existing && !existing.isDir) return 'skipped';
        if (!existing) await deps.fs.mkdir(op.path);
        const stat = await deps.fs.stat(op.path);
        if (!stat?.isDir) return 'skipped';
        await journal.upsert(dirRow(op.key, op.remote.path, stat, op.remote.id));
        log.succeeded(op.path, '新建文件夹（本地）');
        return 'changed';
      });
    case 'mkdirRemote':
      return guarded(deps, op.path, '新建文件夹', async () => {
        const parentId = parentIdOf(deps, op.key);
        if (parentId === null) return 'skipped';
        const stat = await deps.fs.stat(op.local.path);
        if (!stat?.isDir) return 'skipped';
        const created = await deps.remote.mkdir(parentId, baseName(op.path), deps.signal);
        deps.remoteIds.set(op.key, created.id);
        await journal.upsert(dirRow(op.key, joinPath(parentPath(op.path), created.path), stat, created.id));
        log.succeeded(op.local.path, '新建文件夹（云端）');
        return 'changed';
      });
    default:
      return 'skipped';
  }
}

function dirRow(key: string, path: string, stat: LocalStat, remoteId: string): JournalEntry {
  return { key, path, isDir: true, size: 0, mtimeMs: 0, fileId: stat.fileId, fingerprint: null, remoteId, trusted: true };
}

function moveIds(ids: Map<string, string>, fromKey: string, toKey: string): void {
  if (fromKey === toKey) return;
  const moved: Array<[string, string]> = [];
  for (const [key, id] of ids) if (key === fromKey || isInside(key, fromKey)) moved.push([key, id]);
  for (const [key] of moved) ids.delete(key);
  for (const [key, id] of moved) ids.set(toKey + key.slice(fromKey.length), id);
}

/**
 * Remote deletes, in batches. Each carries the digest of the subtree as listed: the server leaves
 * alone what changed since (a file edited, or added under a folder, on another device), and the next
 * pass sees that change. A refused batch is sent again one by one to tell which entry was refused.
 */
async function removeRemote(ops: Array<Extract<Op, { kind: 'deleteRemote' }>>, deps: ExecuteDeps): Promise<number> {
  let removed = 0;
  const items = ops.map((op) => ({ op, id: op.remoteId, digest: subtreeDigest(op.remoteId, deps.listing) }));
  const finish = async (op: Extract<Op, { kind: 'deleteRemote' }>) => {
    deps.deletions?.deleted({ side: 'remote', path: op.path, isDir: op.isDir, remoteId: op.remoteId });
    await deps.journal.forgetTree(op.key);
    for (const key of [...deps.remoteIds.keys()]) if (key === op.key || isInside(key, op.key)) deps.remoteIds.delete(key);
    deps.log.succeeded(op.path, '删除（云端，移入回收站）');
    deps.log.count('deleted');
    removed++;
  };
  const settle = async (batch: typeof items, changed: readonly string[]) => {
    const left = new Set(changed);
    for (const item of batch) {
      if (left.has(item.id)) deps.log.retryLater(item.op.path);
      else await finish(item.op);
    }
  };
  for (const item of items) deps.trace?.(describeOp(item.op));
  for (let i = 0; i < items.length; i += REMOVE_BATCH) {
    const batch = items.slice(i, i + REMOVE_BATCH);
    try {
      const answer = await deps.remote.remove(batch.map(({ id, digest }) => ({ id, digest })), deps.signal);
      await settle(batch, answer.changed);
    } catch (error) {
      if (!(error instanceof RemoteError) || error.kind === 'transient' || error.kind === 'unauthorized') {
        if (error instanceof RemoteError) throw new PassInterrupted(error);
        throw error;
      }
      for (const item of batch) {
        await guarded(deps, item.op.path, '删除', async () => {
          const answer = await deps.remote.remove([{ id: item.id, digest: item.digest }], deps.signal);
          await settle([item], answer.changed);
          return 'changed';
        });
      }
    }
  }
  return removed;
}

/** SHA-256 of the canonical text of `id`'s subtree in the listing (common/sync/tree-digest.ts). */
export function subtreeDigest(id: string, listing: readonly RemoteEntry[]): string {
  const entries = subtreeOf(id, listing).map((r) => ({ ...r, name: baseName(r.path), lockedByOther: r.lockedByOther ?? false }));
  return createHash('sha256').update(treeDigestInput(entries)).digest('hex');
}

/**
 * Uploads and downloads, `transferConcurrency` at a time; the first interruption stops the rest.
 * Small files go up in batches (upload-batch.ts): one request for up to BATCH_MAX_FILES of them.
 */
async function runTransfers(ops: Op[], deps: ExecuteDeps): Promise<number> {
  const units = batchUnits(ops);
  let next = 0;
  let changed = 0;
  let stop: unknown = null;
  const lane = async () => {
    while (stop === null && next < units.length && !deps.shouldStop?.()) {
      const unit = units[next++]!;
      try {
        if (Array.isArray(unit)) {
          for (const op of unit) deps.trace?.(describeOp(op));
          changed += await uploadBatch(unit, deps, {
            guarded: (path, run) => guarded(deps, path, '上传', run),
            parentIdOf: (key) => parentIdOf(deps, key),
            uploadOne: (op) => upload(op, deps),
            interrupted: (error) => new PassInterrupted(error),
          });
          continue;
        }
        deps.trace?.(describeOp(unit));
        const outcome = unit.kind === 'upload' ? await upload(unit, deps) : await download(unit as Extract<Op, { kind: 'download' }>, deps);
        if (outcome === 'changed') changed++;
      } catch (error) {
        stop ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(deps.transferConcurrency, units.length)) }, lane));
  if (stop !== null) throw stop;
  return changed;
}

export { isInside };
