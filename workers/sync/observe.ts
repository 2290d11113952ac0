/**
 * What a pass knows of the local side before it plans: the scan, the fingerprint of every file whose
 * size, time or id differ from the journal (or that the journal does not know), and the files the
 * pass must leave alone, with why:
 *  - still being written: its size or time changed while it was read (retried next pass);
 *  - unreadable: in use by another program, or no permission (fail list);
 *  - the tenant's rules: a blocked type, a sensitive name, a classification mark (never uploaded).
 * Unchanged files are not read at all: an idle pass over 100,000 files reads none.
 */
import { PIPELINE_MIN_BYTES } from '../../common/transfer/constants';
import type { JournalEntry, LocalEntry, RemoteEntry } from './model';
import { baseName, pathKey } from './names';
import { LocalFsError, type FileDigests, type LocalFs, type PolicyVerdict, type RemoteApi, type ScanResult } from './ports';
import type { SyncLog } from './sync-log';
import { statMatches } from './decide-two-way';

export interface Observation {
  local: LocalEntry[];
  /** By local path (as spelled): two spellings of one key are two entries here. */
  frozen: Map<string, string>;
  /** Paths the scan could not look at (or did not follow): each frozen with its whole subtree. */
  unreadable: Array<{ path: string; side: 'local' }>;
  /** Of those, the files held back only by the tenant's rules (stable: they may step aside in a conflict). */
  heldByPolicy: Set<string>;
  digests: Map<string, FileDigests>;
  /** Files (not folders) the pair holds locally. */
  fileCount: number;
  /** Some file was still being written or could not be read, or the scan met an error: the next pass must look again. */
  unsettled: boolean;
}

/** Verdicts kept per file version, so an unchanged file is not asked about again. */
export type VerdictCache = Map<string, { size: number; mtimeMs: number; verdict: PolicyVerdict }>;

export interface ObserveDeps {
  fs: LocalFs;
  remote: RemoteApi;
  log: SyncLog;
  chunkSize: number;
  isIgnored(path: string, isDir: boolean): boolean;
  verdicts: VerdictCache;
  /** Files read at once. */
  readConcurrency: number;
  /** Skip the tenant's rules (backup of a folder the admin exempted; tests). */
  checkPolicy: boolean;
  signal: AbortSignal;
}

const CHECK_BATCH = 1000;

export async function observeLocal(deps: ObserveDeps, scan: ScanResult, journal: readonly JournalEntry[], remote: readonly RemoteEntry[]): Promise<Observation> {
  const { fs, log, signal } = deps;
  const frozen = new Map<string, string>();
  // A read that failed or a path that vanished mid-scan is a hole: its whole subtree is frozen and
  // deletes elsewhere wait (planner.ts) — what the scan did not see is not gone. A symbolic link is
  // a choice, not a hole: skipped and listed, its own path frozen.
  const unreadable: Array<{ path: string; side: 'local' }> = [];
  let scanFailed = false;
  for (const issue of scan.issues) {
    frozen.set(issue.path, issue.reason);
    if (issue.kind === 'symlink') {
      log.policy('skippedList', issue.path, issue.reason);
      continue;
    }
    unreadable.push({ path: issue.path, side: 'local' });
    scanFailed = true;
    if (issue.kind === 'vanished') log.retryLater(issue.path, issue.reason);
    else log.failed(issue.path, '读取', issue.reason);
  }
  const settledFrozen = frozen.size;

  const journalByKey = new Map(journal.map((j) => [j.key, j]));
  const remoteFiles = new Map(remote.filter((r) => !r.isDir).map((r) => [pathKey(r.path), r]));
  const goneSizes = new Set<number>();
  const localKeys = new Set(scan.entries.map((e) => pathKey(e.path)));
  for (const j of journal) if (!j.isDir && !localKeys.has(j.key)) goneSizes.add(j.size);

  const toRead: LocalEntry[] = [];
  let fileCount = 0;
  for (const entry of scan.entries) {
    if (entry.isDir || entry.ignored) continue;
    fileCount++;
    const key = pathKey(entry.path);
    const j = journalByKey.get(key);
    if (j && !j.isDir && j.trusted && statMatches(entry, j) && !cloudFingerprintMoved(j, remoteFiles.get(key))) continue;
    // A large new file with nothing to compare it with is hashed while it uploads (pipelined); a sparse
    // one first, so its all-zero chunks are announced and never sent (reading holes costs no disk reads).
    if (!j && !entry.sparse && entry.size >= PIPELINE_MIN_BYTES && remoteFiles.get(key)?.size !== entry.size && !goneSizes.has(entry.size)) continue;
    toRead.push(entry);
  }

  const digests = new Map<string, FileDigests>();
  let next = 0;
  const lane = async () => {
    while (next < toRead.length) {
      signal.throwIfAborted();
      const entry = toRead[next++]!;
      const key = pathKey(entry.path);
      try {
        const d = await fs.digest(entry.path, deps.chunkSize, signal);
        const after = await fs.stat(entry.path);
        if (!after || after.size !== entry.size || after.mtimeMs !== entry.mtimeMs || after.fileId !== entry.fileId) {
          frozen.set(entry.path, '文件正在写入');
          log.unstable(entry.path);
          continue;
        }
        // The cloud's string where equal (most of a first pass): one copy alive instead of two.
        const cloud = remoteFiles.get(key)?.fingerprint;
        entry.fingerprint = cloud === d.fingerprint ? cloud : d.fingerprint;
        // Kept for the upload only where reading again would cost (more than one chunk).
        if (d.chunkDigests.length > 1) digests.set(key, d);
      } catch (error) {
        if (!(error instanceof LocalFsError)) throw error;
        if (error.code === 'missing') {
          frozen.set(entry.path, error.message);
          continue;
        }
        frozen.set(entry.path, error.message);
        if (error.code === 'busy' || error.code === 'other') log.unstable(entry.path);
        log.failed(entry.path, '读取', error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, deps.readConcurrency) }, lane));

  const heldByPolicy = new Set<string>();
  const unsettled = scanFailed || frozen.size > settledFrozen;
  if (deps.checkPolicy) await applyPolicy(deps, scan.entries, journalByKey, remoteFiles, frozen, heldByPolicy);
  return { local: scan.entries, frozen, unreadable, heldByPolicy, digests, fileCount, unsettled };
}

/** Asks the server's verdict on new or changed files (cached per version) and freezes what it refuses. */
async function applyPolicy(
  deps: ObserveDeps,
  entries: readonly LocalEntry[],
  journal: ReadonlyMap<string, JournalEntry>,
  remoteFiles: ReadonlyMap<string, RemoteEntry>,
  frozen: Map<string, string>,
  heldByPolicy: Set<string>,
): Promise<void> {
  const ask: Array<{ key: string; name: string; size: number }> = [];
  const byKey = new Map<string, LocalEntry>();
  for (const entry of entries) {
    if (entry.isDir || entry.ignored) continue;
    const key = pathKey(entry.path);
    if (frozen.has(entry.path)) continue;
    const j = journal.get(key);
    // Agreed and unchanged, or the cloud holds this very content there already: nothing to upload, nothing to ask.
    if (j && !j.isDir && (entry.fingerprint === undefined || entry.fingerprint === j.fingerprint)) continue;
    if (entry.fingerprint !== undefined && remoteFiles.get(key)?.fingerprint === entry.fingerprint) continue;
    byKey.set(entry.path, entry);
    const cached = deps.verdicts.get(entry.path);
    if (cached && cached.size === entry.size && cached.mtimeMs === entry.mtimeMs) continue;
    ask.push({ key: entry.path, name: baseName(entry.path).normalize('NFC'), size: entry.size });
  }
  for (let i = 0; i < ask.length; i += CHECK_BATCH) {
    const batch = ask.slice(i, i + CHECK_BATCH);
    const verdicts = await deps.remote.check(batch, deps.signal);
    for (const v of verdicts) {
      const entry = byKey.get(v.key);
      if (entry) deps.verdicts.set(v.key, { size: entry.size, mtimeMs: entry.mtimeMs, verdict: v });
    }
  }
  for (const [path, entry] of byKey) {
    const verdict = deps.verdicts.get(path)?.verdict;
    if (!verdict || verdict.verdict === 'ok') continue;
    const reason = verdict.reason ?? '管理员的规则不允许上传';
    frozen.set(path, reason);
    heldByPolicy.add(path);
    const list = verdict.verdict === 'intercepted' ? 'interceptList' : verdict.verdict === 'sensitive' ? 'sensitiveList' : 'secretList';
    deps.log.policy(list, entry.path, reason, entry.size);
  }
}

/**
 * The agreed cloud file (same id, same size) now has another fingerprint. Either it was edited in the
 * cloud, or the server's chunk size changed and it fingerprinted its unchanged content again
 * (common/transfer/chunk-policy.ts). The local file is read so the two can be told apart: equal to the
 * cloud's new fingerprint, it is agreement to record, not a download of the same bytes.
 */
function cloudFingerprintMoved(j: JournalEntry, r: RemoteEntry | undefined): boolean {
  return r !== undefined && r.id === j.remoteId && r.size === j.size && r.fingerprint !== j.fingerprint;
}
