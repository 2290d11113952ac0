/**
 * Small files in batches (issue 42): uploads of files up to BATCH_FILE_MAX_BYTES go up together
 * through the web app's batch endpoint (common/transfer/batch-upload.ts), one request for up to
 * SYNC_BATCH_FILES of them instead of five per file (upload config, second upload, chunk/exist,
 * chunk, merge). The server still checks, deduplicates and stores or refuses each file on its own,
 * and each outcome is recorded as one upload's would be (executor.ts).
 */
import { BATCH_FILE_MAX_BYTES, BATCH_MAX_BYTES } from '../../common/transfer/batch-upload';
import type { ExecuteDeps, Outcome } from './executor';
import { matches } from './local-ops';
import type { JournalEntry, Op } from './model';
import { MTIME_TRUST_MS } from './model';
import { baseName } from './names';
import { RemoteError, type BatchFile, type BatchFileOutcome, type LocalStat } from './ports';

type UploadOp = Extract<Op, { kind: 'upload' }>;

/**
 * Small files per batch request (the server takes up to BATCH_MAX_FILES): smaller batches keep both
 * transfer lanes busy and make a lost request cheap.
 */
const SYNC_BATCH_FILES = 100;

/** The executor's own steps a batch uses (passed in: executor.ts imports this file). */
export interface BatchHelpers {
  /** Runs a step for one file, sorting its failure into the lists as any operation's. */
  guarded(path: string, run: () => Promise<Outcome>): Promise<Outcome>;
  /** The remote id of the folder that is to hold `key`, or null. */
  parentIdOf(key: string): string | null;
  /** One file the ordinary way. */
  uploadOne(op: UploadOp): Promise<Outcome>;
  /** The error that stops the pass (server unreachable, session gone). */
  interrupted(error: RemoteError): Error;
}

/** The transfers as the lanes take them: small uploads grouped into batches (in plan order), the rest one by one. */
export function batchUnits(ops: readonly Op[]): Array<Op | UploadOp[]> {
  const units: Array<Op | UploadOp[]> = [];
  let batch: UploadOp[] = [];
  let bytes = 0;
  for (const op of ops) {
    if (op.kind !== 'upload' || op.local.size > BATCH_FILE_MAX_BYTES) {
      units.push(op);
      continue;
    }
    if (batch.length >= SYNC_BATCH_FILES || bytes + op.local.size > BATCH_MAX_BYTES) {
      units.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(op);
    bytes += op.local.size;
  }
  if (batch.length > 0) units.push(batch);
  // One small file alone takes the ordinary way (resumable, no batch frame).
  return units.map((u) => (Array.isArray(u) && u.length === 1 ? u[0]! : u));
}

/**
 * A batch of small uploads: each file stat-checked, read whole and checked again (a file changed
 * since the scan or while it was read goes the ordinary way, which waits for it to settle), then one request; each file's outcome is recorded on
 * its own, as one upload's would be. A request the server refuses as a whole (an older server without
 * the batch route) sends the files one by one instead.
 */
export async function uploadBatch(ops: UploadOp[], deps: ExecuteDeps, h: BatchHelpers): Promise<number> {
  const { fs, log } = deps;
  const ready: Array<{ op: UploadOp; stat: LocalStat; file: BatchFile }> = [];
  /** Changed since the scan or while read: the ordinary way, which waits for them to settle (settle.ts). */
  const changing: UploadOp[] = [];
  for (const op of ops) {
    await h.guarded(op.path, async () => {
      const before = await fs.stat(op.path);
      if (!before || before.isDir) {
        log.retryLater(op.path, '本地有新的改动，下次同步时重新处理');
        return 'skipped';
      }
      if (!matches(before, op.local)) {
        changing.push(op);
        return 'skipped';
      }
      const parentId = h.parentIdOf(op.key);
      if (parentId === null) {
        log.failed(op.path, '上传', `“${op.path}”的云端上级文件夹不存在：下次同步会重新创建后再上传`);
        return 'skipped';
      }
      const bytes = new Uint8Array(await (await fs.openBlob(op.path)).arrayBuffer());
      if (bytes.length !== before.size || !matches(await fs.stat(op.path), before)) {
        changing.push(op);
        return 'skipped';
      }
      ready.push({ op, stat: before, file: { bytes, target: { parentId, name: baseName(op.remotePath), replace: op.replace } } });
      return 'journal';
    });
  }
  let changed = 0;
  for (const op of changing) if ((await h.uploadOne(op)) === 'changed') changed++;
  if (ready.length === 0) return changed;
  for (const { op, stat } of ready) log.begin(op.path, '上传', 'uploading', stat.size);
  let outcomes: BatchFileOutcome[];
  try {
    outcomes = await deps.remote.uploadBatch(
      ready.map((r) => r.file),
      deps.signal,
    );
  } catch (error) {
    if (deps.signal.aborted) throw deps.signal.reason;
    if (!(error instanceof RemoteError)) throw error;
    if (error.kind === 'transient' || error.kind === 'unauthorized') throw h.interrupted(error);
    for (const { op } of ready) if ((await h.uploadOne(op)) === 'changed') changed++;
    return changed;
  }
  const rows: JournalEntry[] = [];
  const stored: Array<(typeof ready)[number]> = [];
  for (const [i, r] of ready.entries()) {
    const outcome = outcomes[i]!;
    if ('error' in outcome) {
      if (outcome.error.kind === 'refused') log.failed(r.op.path, '上传', `上传“${r.op.path}”失败：${outcome.error.message}`);
      else log.retryLater(r.op.path);
      continue;
    }
    deps.remoteIds.set(r.op.key, outcome.id);
    rows.push({
      key: r.op.key,
      path: r.op.remotePath,
      isDir: false,
      size: r.stat.size,
      mtimeMs: r.stat.mtimeMs,
      fileId: r.stat.fileId,
      fingerprint: outcome.fingerprint,
      remoteId: outcome.id,
      trusted: deps.now() - r.stat.mtimeMs > MTIME_TRUST_MS,
    });
    stored.push(r);
  }
  await deps.journal.upsertMany(rows);
  for (const { op, stat } of stored) {
    log.succeeded(op.path, op.replace ? '上传新版本' : '上传', stat.size);
    log.count('uploaded');
  }
  return changed + stored.length;
}

