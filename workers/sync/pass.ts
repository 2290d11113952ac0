/**
 * One pass of one folder pair: find the cloud folder, list it (nothing is sent when it did not change
 * since the last listing), load the journal, scan and read what changed locally, plan, execute.
 * A pass whose plan needs a follow-up (a folder stepping aside in a conflict, a move planned again as
 * delete plus add) plans again at once, a few times at most; everything else waits for the next pass.
 *
 * Safety stops: the local folder missing and the cloud folder gone end the pass before anything is
 * planned. Deletes above the threshold (delete-gate.ts) wait for the person: a side that is suddenly
 * empty (an unmounted disk looks like "everything deleted") stops the whole pass; more than half the
 * synced files, or more than 100, hold the deletes while the rest of the pass goes on. The deletes a
 * pass does are recorded as one deletion event (deletion-events.ts), restorable in one action.
 */
import type { SyncPairConfig, SyncPassSummary } from '../../common/sync/types';
import { execute, PassInterrupted, type DeletedItem } from './executor';
import { isDeleteOp, judgeDeletes, plannedDeletes, type DeleteGuard } from './delete-gate';
import { clearConfirmed, confirmedDeletes, loadEvents, loadHeld, newEventId, recordEvent, saveHeld, type StoredEvent, type StoredHeld } from './deletion-events';
import { recoverTrash } from './local-ops';
import type { RemoteEntry } from './model';
import { createIgnoreMatcher, pathKey, type LocalPlatform } from './names';
import { cleanState, unchangedSince, type CleanState } from './clean-state';
import { observeLocal, type VerdictCache } from './observe';
import { plan } from './planner';
import type { JournalEntry, LocalEntry, Op, Plan, PlanInput } from './model';
import { RemoteError, type Journal, type LocalFs, type RemoteApi, type RemoteListing, type ScanResult } from './ports';
import type { SyncLog } from './sync-log';
import type { Sleep } from './settle';

export interface PairRuntime {
  config: SyncPairConfig;
  fs: LocalFs;
  remote: RemoteApi;
  journal: Journal;
  log: SyncLog;
  platform: LocalPlatform;
  now(): number;
  transferConcurrency: number;
  readConcurrency: number;
  checkPolicy: boolean;
  /** Kept between passes. */
  cache: PairCache;
  /** Each operation as it starts (the simulation's trace). */
  trace?: (line: string) => void;
  /** Each scan (the folder watcher follows the folders it found). */
  onScan?: (scan: ScanResult) => void;
  /** True once the engine is stopping or paused: no new operation starts (those in flight finish). */
  shouldStop?: () => boolean;
  /** Each plan with what it was made from (debugging: the simulation can save it to replay the planner alone). */
  onPlan?: (input: PlanInput, plan: Plan) => void;
  /** When deletes wait for the person (delete-gate.ts); null: never (every delete goes). */
  deleteGuard: DeleteGuard | null;
  /** Waiting for a file that changed during its upload to settle (real timers unless given: the simulation's clock). */
  sleep?: Sleep;
}

export interface PairCache {
  /** The token of the last listing. */
  listingToken: string | null;
  /** What a pass that planned nothing saw: the next pass skips all work while nothing differs from it. */
  clean: CleanState | null;
  verdicts: VerdictCache;
  noMove: Set<string>;
  account: string | null;
  /** The journal's held deletes and deletion events as last read or written (the status shows them); undefined: not read yet. */
  held?: StoredHeld | null;
  events?: StoredEvent[];
}

export function newPairCache(): PairCache {
  return { listingToken: null, clean: null, verdicts: new Map(), noMove: new Set(), account: null };
}

/** Reads the held deletes and deletion events into the cache (once: the pass keeps them current after). */
export async function loadDecisions(rt: PairRuntime): Promise<void> {
  if (rt.cache.held === undefined) rt.cache.held = await loadHeld(rt.journal);
  if (rt.cache.events === undefined) rt.cache.events = await loadEvents(rt.journal);
}

/** A pass stopped for a reason the user must see (and that retrying soon will not fix by itself). */
export class PassRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PassRefused';
  }
}

/** The whole pass waits for the person: a side is suddenly empty (nothing was done). */
export class DeletesHeld extends PassRefused {
  constructor(message: string) {
    super(message);
    this.name = 'DeletesHeld';
  }
}

const MAX_ROUNDS = 4;

export interface PassOutcome {
  summary: SyncPassSummary;
  /** Operations the last plan of the pass held (0: both sides and the journal agreed). */
  lastPlanSize: number;
  /** Deletes wait for the person (the rest of the pass went on); rt.cache.held says which. */
  held: boolean;
}

export async function runPass(rt: PairRuntime, signal: AbortSignal): Promise<PassOutcome> {
  const { log } = rt;
  log.beginPass();
  let lastPlanSize = 0;
  let held = false;
  const event: StoredEvent = { id: newEventId(rt.now()), at: rt.now(), items: [] };
  const deletions = {
    keepAs: (path: string) => rt.fs.keptPath?.(event.id, path) ?? null,
    deleted: (item: DeletedItem) => void event.items.push(item),
  };
  try {
    await loadDecisions(rt);
    const root = await rt.fs.stat('');
    if (!root?.isDir) throw new PassRefused(`本地文件夹不存在：${rt.config.localDir}`);
    await rt.fs.cleanTemp();
    const rootId = await resolveRoot(rt, signal);
    const chunkSize = await rt.remote.chunkSize(signal);
    const agreed = async () => new Set((await rt.journal.all()).map((j) => j.fingerprint).filter((f): f is string => f !== null));
    await recoverTrash(rt.fs, agreed, chunkSize, rt.now(), signal);
    rt.cache.account ??= await rt.remote.account();
    const isIgnored = createIgnoreMatcher(rt.config.ignore);
    phase('pass start');

    for (let round = 0; round < MAX_ROUNDS && !rt.shouldStop?.(); round++) {
      // The listing is the server's work, the scan this process's: both at once. After a clean pass
      // the listing is asked with its token: unchanged, it comes back empty.
      const clean = round === 0 ? rt.cache.clean : null;
      const known = await rt.journal.index();
      const [listed, scan] = await Promise.all([
        listRemote(rt, rootId, clean?.token ?? null, signal),
        rt.fs.scan(isIgnored, signal, (path) => known.get(pathKey(path))),
      ]);
      phase('listed+scanned');
      const journal = await rt.journal.all();
      phase('journal loaded');
      rt.onScan?.(scan);
      if (clean && listed === null && unchangedSince(clean, scan, known)) {
        // Nothing changed on either side since a pass that left nothing to do: no file is read,
        // nothing is planned, the lists stay as they were.
        log.carryOver();
        break;
      }
      rt.cache.clean = null;
      const full = listed ?? (await listRemote(rt, rootId, null, signal))!;
      const remote = shareStrings(full.entries, scan, known);
      const remoteUnreadable = full.unreadable ?? [];
      for (const u of remoteUnreadable) log.failed(u.path, '读取云端', u.reason);
      // A listing with holes is not one to compare against next time: list again in full.
      if (remoteUnreadable.length > 0) rt.cache.listingToken = null;
      collectGarbage();
      phase('remote shared');
      const observed = await observeLocal(
        { fs: rt.fs, remote: rt.remote, log, chunkSize, isIgnored, verdicts: rt.cache.verdicts, readConcurrency: rt.readConcurrency, checkPolicy: rt.checkPolicy, signal },
        scan,
        journal,
        remote,
      );
      log.setFileCount(observed.fileCount);
      const planInput = {
        mode: rt.config.mode,
        deleteRemote: rt.config.deleteRemote,
        account: rt.cache.account,
        now: rt.now(),
        platform: rt.platform,
        local: observed.local,
        remote,
        journal,
        frozen: observed.frozen,
        heldByPolicy: observed.heldByPolicy,
        unreadable: [...observed.unreadable, ...remoteUnreadable.map((u) => ({ path: u.path, side: 'remote' as const }))],
        isIgnored,
        noMove: rt.cache.noMove,
      };
      collectGarbage();
      phase('observed');
      const planned = plan(planInput);
      // The planner's indexes (three trees by key, the sorted keys) are garbage now: gone before the
      // executor fills the journal's copy.
      collectGarbage();
      phase('planned');
      rt.onPlan?.(planInput, planned);
      for (const p of planned.problems) log.failed(p.path, p.side === 'local' ? '上传' : '下载', p.reason);
      lastPlanSize = planned.ops.length;
      if (planned.ops.length === 0) {
        if (!observed.unsettled && rt.cache.listingToken) rt.cache.clean = cleanState(rt.cache.listingToken, scan, journal);
        break;
      }
      const ops = await gateDeletes(rt, planned.ops, journal, observed.local, remote);
      held = ops.length < planned.ops.length;
      if (ops.length === 0) break;

      // Only operations on the cloud side ask for ids by path (an adopted tree records rows only).
      const remoteIds = ops.every(isJournalOnly) ? new Map<string, string>() : new Map(remote.map((r) => [pathKey(r.path), r.id]));
      const result = await execute(ops, {
        fs: rt.fs,
        remote: rt.remote,
        journal: rt.journal,
        log,
        rootId,
        now: rt.now,
        listing: remote,
        remoteIds,
        digests: observed.digests,
        chunkSize,
        transferConcurrency: rt.transferConcurrency,
        signal,
        trace: rt.trace,
        shouldStop: rt.shouldStop,
        deletions,
        sleep: rt.sleep,
      });
      phase('executed');
      if (result.changed > 0) rt.cache.listingToken = null; // our own changes: list again next time
      if (result.failedMove !== null) {
        rt.cache.noMove.add(result.failedMove);
        continue;
      }
      // Only journal rows written (an adopted tree): both sides agree as scanned, so the next pass
      // may take the short cut without planning everything once more.
      const journalOnly = !held && planned.ops.every(isJournalOnly);
      if (journalOnly && result.failedMove === null && !observed.unsettled && rt.cache.listingToken) {
        rt.cache.clean = cleanState(rt.cache.listingToken, scan, await rt.journal.all());
      }
      const needsFollowUp = planned.ops.some((op) => op.kind === 'conflictLocal' && op.expect.isDir);
      if (!needsFollowUp) break;
    }
  } catch (error) {
    if (error instanceof PassInterrupted) throw error.reason;
    throw error;
  } finally {
    log.endPass();
    if (event.items.length > 0) {
      // Also when the pass ended in an error: the deletes it did are restorable all the same.
      rt.cache.events = await recordEvent(rt.journal, rt.fs, event, rt.now());
    }
  }
  collectGarbage();
  phase('pass done');
  return { summary: { ...log.summary }, lastPlanSize, held };
}

/**
 * The plan's operations that may run now: all of them, or all but the deletes that wait for the
 * person (kept in the journal for 确认删除). A side that is suddenly empty stops the whole pass.
 */
async function gateDeletes(rt: PairRuntime, ops: readonly Op[], journal: readonly JournalEntry[], local: readonly LocalEntry[], remote: readonly RemoteEntry[]): Promise<readonly Op[]> {
  if (rt.deleteGuard === null || !ops.some(isDeleteOp)) {
    if (rt.cache.held) rt.cache.held = await saveHeld(rt.journal, null, 0, rt.now());
    return ops;
  }
  const deletes = plannedDeletes(ops, journal);
  const syncedFiles = countFiles(journal);
  const verdict = judgeDeletes({
    deletes,
    confirmed: await confirmedDeletes(rt.journal),
    syncedFiles,
    localFiles: countFiles(local.filter((l) => !l.ignored)),
    remoteFiles: countFiles(remote),
    guard: rt.deleteGuard,
  });
  if (verdict.go) {
    if (rt.cache.held) rt.cache.held = await saveHeld(rt.journal, null, 0, rt.now());
    await clearConfirmed(rt.journal);
    return ops;
  }
  rt.cache.held = await saveHeld(rt.journal, verdict, syncedFiles, rt.now());
  if (verdict.wholePass) throw new DeletesHeld(verdict.reason);
  const waiting = new Set(verdict.held.map((d) => d.op));
  return ops.filter((op) => !isDeleteOp(op) || !waiting.has(op));
}

function countFiles(entries: ReadonlyArray<{ isDir: boolean }>): number {
  let n = 0;
  for (const e of entries) if (!e.isDir) n++;
  return n;
}

const isJournalOnly = (op: Op): boolean => op.kind === 'record' || op.kind === 'forget' || op.kind === 'rebase';

/**
 * Collects garbage between a pass's phases when the process allows it (`--expose-gc`, as the engine
 * process is started: common/sync/engine-flags.ts). A pass over 100,000 files makes its garbage in
 * bursts (the scan, the reads, the plan); collected between them, the peak stays near what is live.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * SYNC_TRACE_MEM=1: each phase of a pass prints the process's memory to stderr (after a collection,
 * so it is what is live), for profiling at scale (tests/bench/lib/sync-profile.ts).
 */
const traceMemory = (globalThis as { process?: NodeJS.Process }).process?.env.SYNC_TRACE_MEM === '1';
function phase(name: string): void {
  if (!traceMemory) return;
  const at = performance.now();
  collectGarbage();
  const m = process.memoryUsage();
  const mb = (n: number) => (n / 1048576).toFixed(1);
  process.stderr.write(`[mem] ${name.padEnd(22)} rss ${mb(m.rss)} heap ${mb(m.heapUsed)}/${mb(m.heapTotal)} ext ${mb(m.external)} ab ${mb(m.arrayBuffers)} maxrss ${(process.resourceUsage().maxRSS / 1024).toFixed(1)} at ${at.toFixed(0)} ms\n`);
}

/** The cloud folder's id: kept in the journal; a folder that vanished stops the pair (no mass delete). */
async function resolveRoot(rt: PairRuntime, signal: AbortSignal): Promise<string> {
  const known = await rt.journal.getMeta('rootId');
  const knownPath = await rt.journal.getMeta('remotePath');
  if (known && knownPath === rt.config.remotePath) return known;
  const rows = await rt.journal.all();
  if (known && rows.length > 0) {
    throw new PassRefused('云端文件夹已更改：请为新的云端文件夹另建同步');
  }
  const id = await rt.remote.ensureRoot(rt.config.remotePath, signal);
  await rt.journal.setMeta('rootId', id);
  await rt.journal.setMeta('remotePath', rt.config.remotePath);
  rt.cache.listingToken = null;
  return id;
}

/** The cloud tree (and the folders it could not list), or null when `token` is still current (nothing changed since). */
async function listRemote(rt: PairRuntime, rootId: string, token: string | null, signal: AbortSignal): Promise<{ entries: RemoteEntry[]; unreadable?: RemoteListing['unreadable'] } | null> {
  try {
    const listing = await rt.remote.listTree(rootId, token, signal);
    rt.cache.listingToken = listing.token;
    return listing.entries === null ? null : { entries: listing.entries, unreadable: listing.unreadable };
  } catch (error) {
    if (error instanceof RemoteError && error.kind === 'notFound') {
      throw new PassRefused(`云端文件夹已被删除或移走：${rt.config.remotePath}（为免误删本地文件，同步已暂停）`);
    }
    throw error;
  }
}

/**
 * Strings equal on both sides become one: the cloud entries take the journal's path, fingerprint and
 * id where they match its row, and the scan's path where the journal has no row (a first pass).
 * 100,000 paths of Chinese names are ~22 MB a copy, their fingerprints 8 MB; the planner holds every
 * tree at once. The scan's paths are indexed only for entries the journal does not hold, so a pass
 * over a synced tree builds no second index of 100,000 paths.
 */
function shareStrings(remote: RemoteEntry[], scan: ScanResult, known: ReadonlyMap<string, JournalEntry>): RemoteEntry[] {
  let unmatched: RemoteEntry[] | null = null;
  for (const r of remote) {
    const j = known.get(pathKey(r.path));
    if (j && j.path === r.path) {
      r.path = j.path;
      if (j.remoteId === r.id) r.id = j.remoteId;
      if (r.fingerprint !== null && j.fingerprint === r.fingerprint) r.fingerprint = j.fingerprint;
    } else {
      (unmatched ??= []).push(r);
    }
  }
  if (unmatched === null) return remote;
  const local = new Map<string, string>();
  for (const e of scan.entries) if (!known.has(pathKey(e.path))) local.set(e.path, e.path);
  for (const r of unmatched) {
    const same = local.get(r.path);
    if (same !== undefined) r.path = same;
  }
  return remote;
}
