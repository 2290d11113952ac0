/**
 * The transfer engine: owns the queue (persisted in Dexie), schedules up to `fileConcurrency` items
 * at once, applies the user's commands, retries transient failures, waits out offline periods, and
 * publishes throttled snapshots. Everything it touches from outside comes in through `EngineDeps`, so
 * tests and a Node replay can run it with their own fetch, transport, clock, database and hashers.
 *
 * Consistency rule: every write of an item goes through `write()` (or item-writes.ts's batched
 * writes), which serializes writes per item and keeps the in-memory mirror equal to the database —
 * except a small-file batch's start ('waiting' → 'uploading', nothing else), kept in memory only: a
 * reload makes any running item 'waiting' again, which the database then still says. A running attempt writes with its abort
 * signal; once aborted (pause, cancel), its state changes are dropped, so a command never races with
 * a late "done" or "retrying" from the attempt it stopped.
 */
import { PRE_UPLOAD } from '../../common/api/endpoints/pre-upload';
import { BATCH_FILE_MAX_BYTES } from '../../common/transfer/batch-upload';
import { DEFAULT_CHUNK_CONCURRENCY, DEFAULT_FILE_CONCURRENCY, STALL_TIMEOUT_MS } from '../../common/transfer/constants';
import {
  DEFAULT_ENGINE_CONFIG,
  type NewVersionTarget,
  type EngineApi,
  type EngineConfig,
  type FolderEntry,
  type HeldDecision,
  type TransferItemView,
  type TransferSnapshot,
  type UploadTarget,
} from '../../common/transfer/engine-api';
import { isActive, isFinal } from '../../common/transfer/states';
import { renamedPatch } from './rename';
import { createInThreadHashChunk, createSha256Hex, type HashChunk, type Sha256Hex } from '../hash/sha256';
import type { TransferDb } from '../queue/db';
import { listUploads, removeFinishedUploads, removeUpload } from '../queue/repository';
import { newUploadRecord as initialUploadRecord } from '../queue/records';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { createApiClient, type FetchFn } from './api-client';
import { abortableSleep, type Sleep } from './backoff';
import { createFolders, folderOf, folderPaths, normalizePath } from './folders';
import { newItemId } from './ids';
import { MESSAGES } from './messages';
import { NOTIFY_INTERVAL_MS, ThrottledNotifier } from './notifier';
import { browserOnlineSignal, ONLINE_POLL_MS, type OnlineSignal } from './online';
import { toQueueExport } from './queue-export';
import { fingerprintMatches } from './reattach';
import { createBatchDriver } from './batch-driver';
import { createItemDriver } from './item-driver';
import { defaultRequestPersistence, storeRefusedFile } from './queue-storage';
import { planStarts } from './scheduler';
import { answeredUpFront, createEnqueuer } from './enqueue';
import { runCheckRound } from './check-round';
import { createUploadTypes } from './upload-types';
import { createItemWrites } from './item-writes';
import { ABORTED_BY_COMMAND, liveOf, toView, type LiveItem } from './live-item';
import { defaultChunkTransport, withStallDetection, type ChunkTransport } from './transport';

export interface EngineDeps {
  db: TransferDb;
  /** JSON calls, and chunk bodies when no `transport` is given and there is no XHR. */
  fetch: FetchFn;
  config?: EngineConfig;
  now?: () => number;
  random?: () => number;
  sleep?: Sleep;
  /** SHA-256 for the fingerprint and for re-checking a chunk after a digest mismatch. */
  sha256?: Sha256Hex;
  /**
   * Hashes chunk [start, end) of a file: the hash worker pool in the browser (workers/hash/hash-pool.ts),
   * a worker_threads pool or the in-thread hasher under Node. Default: in-thread (createInThreadHashChunk).
   */
  hashChunk?: HashChunk;
  /** Chunks hashed at once (the pool's size). Default 2: even in-thread, reading overlaps digesting. */
  hashConcurrency?: number;
  /** Who digests a streaming session's chunks (upload-runner.ts UploadRunContext). Default 'client'. */
  streamingDigests?: 'client' | 'server';
  /** Sends chunk bodies with byte progress. Default: XMLHttpRequest where present, else `fetch`. */
  transport?: ChunkTransport;
  /** A chunk request with no progress for this long is aborted and retried. Default STALL_TIMEOUT_MS. */
  stallTimeoutMs?: number;
  /** Network up/down. Default: navigator.onLine and the 'online'/'offline' events (always online in Node). */
  onlineSignal?: OnlineSignal;
  newId?: (now: number) => string;
  fileConcurrency?: number;
  /** Most chunk requests in flight per item (429 answers lower it for a while). */
  chunkConcurrency?: number;
  notifyIntervalMs?: number;
  /** Asks the browser not to evict the queue's storage; default: navigator.storage.persist when present. */
  requestPersistence?: () => void;
  /** Small files in batches (batch-upload.ts). Default true; a server answering 404 turns it off. */
  smallFileBatches?: boolean;
}

export interface Engine extends EngineApi<Blob> {
  /** Loads the persisted queue and starts scheduling; called implicitly by every other method. */
  start(): Promise<void>;
  /** Aborts every attempt and stops notifying (tests, worker shutdown). Persisted state is kept. */
  dispose(): Promise<void>;
}

export { CHUNK_PROGRESS_SAVE_MS } from './item-writes';

/** Items queued offline: how long before their checks are asked again when the server stays unreachable. */
export const CHECK_RETRY_MS = 5_000;

/** Holds the server knows about (multipleFile/check recorded them): decisions are reported to it. */
const SERVER_HOLDS = new Set(['exists', 'sensitive', 'locked']);

export function createEngine(deps: EngineDeps): Engine {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? abortableSleep;
  const sha256 = deps.sha256 ?? createSha256Hex();
  const hashChunk = deps.hashChunk ?? createInThreadHashChunk(sha256);
  const hashConcurrency = Math.max(1, deps.hashConcurrency ?? 2);
  const newId = deps.newId ?? newItemId;
  const fileConcurrency = deps.fileConcurrency ?? DEFAULT_FILE_CONCURRENCY;
  const chunkConcurrency = Math.max(1, deps.chunkConcurrency ?? DEFAULT_CHUNK_CONCURRENCY);
  const online = deps.onlineSignal ?? browserOnlineSignal();
  const stallTimeoutMs = deps.stallTimeoutMs ?? STALL_TIMEOUT_MS;
  const transport = withStallDetection(deps.transport ?? defaultChunkTransport(deps.fetch), stallTimeoutMs);
  let config: EngineConfig = deps.config ?? DEFAULT_ENGINE_CONFIG;
  const api = createApiClient(deps.fetch, () => config, transport);
  const types = createUploadTypes(api, db, now);

  /** Insertion order = queue order (loaded sorted by createdAt, then appended). */
  const items = new Map<string, LiveItem>();
  /** Aborts engine-level calls (checks, folder creation) on dispose. */
  const lifetime = new AbortController();
  let running = 0;
  let starting: Promise<void> | null = null;
  let disposed = false;
  const notifier = new ThrottledNotifier<TransferSnapshot>(buildSnapshot, now, deps.notifyIntervalMs ?? NOTIFY_INTERVAL_MS);
  const stopListeningOnline = online.subscribe((up) => {
    if (up) pump();
  });

  // ---- persistence: one write at a time per item (item-writes.ts) -------------------------------

  const { write, writeMany, startMany, transitionIfAllowed, persistConfirmed, flush } = createItemWrites(db, items, now, (prompt) => notifier.changed(prompt));
  const { drive } = createItemDriver({
    api,
    now,
    random,
    sleep,
    sha256,
    hashChunk,
    hashConcurrency,
    streamingDigests: deps.streamingDigests ?? 'client',
    stallTimeoutMs,
    chunkConcurrency,
    online,
    write,
    persistConfirmed,
    changed: () => notifier.changed(),
    exists: (id) => items.has(id),
    started: () => void running++,
    ended: () => {
      running--;
      pump();
    },
  });

  /** False once the server answered the batch route with 404 (a backend without it). */
  let batchesAvailable = deps.smallFileBatches ?? true;
  const { driveBatch } = createBatchDriver({
    api,
    now,
    random,
    sleep,
    sha256,
    online,
    writeMany,
    startMany,
    lifetime: lifetime.signal,
    changed: () => notifier.changed(),
    started: () => void running++,
    ended: () => {
      running--;
      pump();
    },
    unsupported: () => {
      batchesAvailable = false;
    },
  });

  // ---- scheduling ----------------------------------------------------------------------------

  /** A small file never sent before goes up in a batch (common/transfer/batch-upload.ts). */
  function batchable(live: LiveItem): boolean {
    const r = live.record;
    // A client installer goes by chunk/exist and merge, which carry its purpose (the batch path does not);
    // so does 上传新版本, which addresses its file by id (versionOf) where a batch item has only a place.
    return batchesAvailable && live.file !== null && r.size <= BATCH_FILE_MAX_BYTES && r.uploadId === null && r.chunksDone.length === 0 && !r.purpose && !r.versionOf;
  }

  /** Starts waiting items while places are free (scheduler.ts). */
  function pump(): void {
    if (disposed || starting === null) return;
    // Offline, nothing starts: items stay 'waiting' until the network is back.
    if (!online.isOnline()) return wakeWhenOnline();
    const unchecked = [...items.values()].filter((l) => l.record.state === 'waiting' && l.record.checksPending);
    if (unchecked.length > 0) void checkBeforeSending(unchecked);
    const checked = [...items.values()].filter((l) => !l.record.checksPending);
    for (const start of planStarts(checked, fileConcurrency - running, batchable)) {
      if (start.kind === 'single') void drive(start.live);
      else void driveBatch(start.lives);
    }
  }

  let wakeTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * A pump that found the network down looks again in ONLINE_POLL_MS while anything waits. Not left to
   * the online signal's change alone: a worker may get no 'offline'/'online' events (Chromium's network
   * emulation), and an offline spell shorter than the signal's own poll is no change to it — an item
   * queued offline then never started (e2e upload-checks, once in a fresh clone).
   */
  function wakeWhenOnline(): void {
    if (wakeTimer !== null || disposed || ![...items.values()].some((l) => l.record.state === 'waiting')) return;
    wakeTimer = setTimeout(() => {
      wakeTimer = null;
      pump();
    }, ONLINE_POLL_MS);
  }

  /** A round of pre-send checks is being asked (one at a time; items queued meanwhile wait for the next). */
  let checkingBeforeSending = false;

  /**
   * Items queued offline: their pre-upload checks (spec §4), one round for all of them, before any of
   * their bytes go. Still unreachable: the next round waits CHECK_RETRY_MS (or the 'online' event).
   */
  async function checkBeforeSending(lives: LiveItem[]): Promise<void> {
    if (checkingBeforeSending) return;
    checkingBeforeSending = true;
    let offline = false;
    try {
      const round = await runCheckRound({ api, types, signal: lifetime.signal }, lives.map((l) => l.record));
      offline = round.offline;
      const patches = new Map<string, UploadPatch>();
      for (const live of lives) {
        const outcome = round.outcomes.get(live.record.id);
        if (!outcome || outcome.checksPending) continue;
        const { state, holdReason, lastError } = answeredUpFront(live.record, outcome) ? { state: 'waiting' as const, holdReason: null, lastError: null } : outcome;
        patches.set(live.record.id, { state, holdReason, lastError, checksPending: false });
      }
      await writeMany(patches, new Set(['waiting']));
      notifier.changed();
    } catch (error) {
      if (!lifetime.signal.aborted) console.warn('transfer engine: pre-send checks failed', error);
      offline = true;
    } finally {
      checkingBeforeSending = false;
    }
    if (disposed) return;
    if (offline) await sleep(CHECK_RETRY_MS, lifetime.signal).catch(() => undefined);
    pump();
  }

  function stopAttempt(live: LiveItem): void {
    live.run?.abort(new DOMException(ABORTED_BY_COMMAND, 'AbortError'));
  }

  // ---- start-up ------------------------------------------------------------------------------

  async function load(): Promise<void> {
    (deps.requestPersistence ?? defaultRequestPersistence)();
    for (const record of await listUploads(db)) items.set(record.id, liveOf(record, record.file));
    for (const live of items.values()) {
      const { id, state } = live.record;
      // The page died mid-transfer: queue it again; chunk/exist says what survived.
      if (isActive(state)) await transitionIfAllowed(id, 'waiting');
      if (live.record.state === 'waiting' && !live.file) {
        await transitionIfAllowed(id, 'held', { lastError: MESSAGES.fileUnreadable, holdReason: 'fileMissing' });
      }
    }
  }

  function start(): Promise<void> {
    starting ??= load().then(pump);
    return starting;
  }

  // ---- enqueueing ----------------------------------------------------------------------------

  function newUploadRecord(file: Blob, target: UploadTarget, createdAt: number, relativePath: string | null): UploadRecord {
    return initialUploadRecord({ id: newId(createdAt), file, target, createdAt, relativePath, chunkConcurrency });
  }

  const addChecked = createEnqueuer({
    api,
    db,
    types,
    signal: lifetime.signal,
    added: (records) => {
      for (const record of records) items.set(record.id, liveOf(record, record.file));
      // New rows: shown at once (PROMPT_NOTIFY_MS), not with the next progress interval.
      notifier.changed(true);
      pump();
    },
  });

  // ---- views ---------------------------------------------------------------------------------

  function buildSnapshot(): TransferSnapshot {
    const views: TransferItemView[] = [];
    let totalBytes = 0;
    let doneBytes = 0;
    let speed = 0;
    for (const live of items.values()) {
      const view = toView(live);
      views.push(view);
      if (view.state === 'cancelled') continue;
      totalBytes += view.size;
      doneBytes += view.bytesDone;
      speed += view.speed;
    }
    return { items: views, totalBytes, doneBytes, speed };
  }

  // ---- commands ------------------------------------------------------------------------------

  /** Items a command may act on (retry/resume of intercepted files is refused). */
  function retryable(live: LiveItem): boolean {
    const { state, holdReason } = live.record;
    // An intercepted type, or a name the server refuses, fails again: those are not retried.
    if (state === 'failed') return holdReason !== 'blockedType' && holdReason !== 'badName' && holdReason !== 'versionGone';
    if (state === 'held') return holdReason === null || holdReason === 'unauthorized';
    return state === 'paused';
  }

  const engine: Engine = {
    start,

    async configure(next) {
      config = { ...next };
      await start();
    },

    async enqueueUploads(files, target, options) {
      await start();
      const createdAt = now();
      return addChecked(files.map((file) => newUploadRecord(file, target, createdAt, null)), options);
    },

    async enqueueFolder(entries: FolderEntry<Blob>[], target, options) {
      await start();
      const paths = entries.map((e) => normalizePath(e.relativePath));
      const folderIds = await createFolders(api, folderPaths(paths), target, lifetime.signal);
      const createdAt = now();
      const records = entries.map((entry, i) => {
        const path = paths[i] as string;
        const parentId = folderIds.get(folderOf(path)) ?? target.parentId;
        return newUploadRecord(entry.file, { parentId, category: target.category }, createdAt, path);
      });
      return addChecked(records, options);
    },

    async enqueueNewVersion(file: Blob, target: NewVersionTarget) {
      await start();
      const record: UploadRecord = {
        ...newUploadRecord(file, { parentId: target.parentId, category: target.category }, now(), null),
        name: target.name,
        onConflict: 'newVersion',
        versionOf: target.fileId,
      };
      const [id] = await addChecked([record]);
      return id as string;
    },

    async pause(id) {
      await start();
      const live = items.get(id);
      if (!live) return;
      stopAttempt(live);
      await transitionIfAllowed(id, 'paused');
      stopAttempt(live); // an attempt the scheduler started meanwhile

    },

    async resume(id) {
      await start();
      const live = items.get(id);
      if (!live) return;
      if (live.record.state === 'failed' || live.record.state === 'held') return engine.retry(id);
      if (await transitionIfAllowed(id, 'waiting')) pump();
    },

    async cancel(id) {
      await start();
      const live = items.get(id);
      if (!live) return;
      stopAttempt(live);
      await transitionIfAllowed(id, 'cancelled');
      stopAttempt(live); // an attempt the scheduler started meanwhile
    },

    async retry(id) {
      await start();
      const live = items.get(id);
      if (!live || !retryable(live)) return;
      if (await transitionIfAllowed(id, 'waiting', { attempts: 0, lastError: null, holdReason: null })) pump();
    },

    async pauseAll() {
      await start();
      await Promise.all([...items.values()].filter((l) => !isFinal(l.record.state)).map((l) => engine.pause(l.record.id)));
    },

    async resumeAll() {
      await start();
      await Promise.all([...items.values()].filter((l) => l.record.state === 'paused').map((l) => engine.resume(l.record.id)));
    },

    async cancelAll() {
      await start();
      await Promise.all([...items.values()].filter((l) => !isFinal(l.record.state)).map((l) => engine.cancel(l.record.id)));
    },

    async retryAll() {
      await start();
      await Promise.all([...items.values()].filter((l) => l.record.state !== 'paused' && retryable(l)).map((l) => engine.retry(l.record.id)));
    },

    async resumeAccessHolds() {
      await start();
      const held = [...items.values()].filter((l) => l.record.state === 'held' && l.record.holdReason === 'unauthorized');
      await Promise.all(held.map((l) => engine.retry(l.record.id)));
    },

    async rename(id, name) {
      await start();
      const live = items.get(id);
      if (!live || live.record.state !== 'failed' || live.record.holdReason !== 'badName') return;
      if (await transitionIfAllowed(id, 'waiting', renamedPatch(live.record, name))) pump();
    },

    async remove(id) {
      await start();
      const live = items.get(id);
      if (!live) return;
      const { state, holdReason } = live.record;
      // A decision the server waits for (multipleFile/check recorded it) is answered, as 放弃 would.
      if (state === 'held' && holdReason !== null && SERVER_HOLDS.has(holdReason)) await engine.decide(id, 'giveUp');
      else await engine.cancel(id);
      items.delete(id);
      await removeUpload(db, id);
      notifier.changed(true);
    },

    async decide(id, decision: HeldDecision) {
      await start();
      const live = items.get(id);
      if (!live || live.record.state !== 'held') return;
      const reason = live.record.holdReason;
      const known = reason !== null && SERVER_HOLDS.has(reason);
      if (decision === 'giveUp') {
        if (known) await api.send(PRE_UPLOAD.giveUpUpload, { key: id }, lifetime.signal);
        await engine.cancel(id);
        return;
      }
      if (reason === 'locked' && decision === 'newVersion') {
        throw new Error('a locked file cannot get a new version: rename or give up');
      }
      if (known) await api.send(PRE_UPLOAD.keepOnUpload, { key: id, policy: decision }, lifetime.signal);
      const patch: UploadPatch = { onConflict: decision, holdReason: null, lastError: null, attempts: 0 };
      if (await transitionIfAllowed(id, 'waiting', patch)) pump();
    },

    async reattach(id, file) {
      await start();
      const live = items.get(id);
      if (!live || live.record.state !== 'held') return false;
      if (live.record.holdReason !== 'fileMissing' && live.file) return false;
      if (!(await fingerprintMatches(live.record, file, hashChunk, sha256, lifetime.signal))) return false;
      live.file = file;
      try {
        await write(id, { file });
      } catch (error) {
        if (!storeRefusedFile(error)) throw error; // kept in memory only, as at enqueue
      }
      const patch: UploadPatch = { holdReason: null, lastError: null, attempts: 0 };
      if (await transitionIfAllowed(id, 'waiting', patch)) pump();
      return true;
    },

    async exportQueue() {
      await start();
      return toQueueExport([...items.values()].map((l) => l.record), now());
    },

    async clearFinished() {
      await start();
      for (const id of await removeFinishedUploads(db)) items.delete(id);
      notifier.changed(true);
    },

    async clearFailed() {
      await start();
      const failed = [...items.values()].filter((l) => l.record.state === 'failed').map((l) => l.record.id);
      for (const id of failed) await engine.remove(id);
    },

    async getSnapshot() {
      await start();
      return buildSnapshot();
    },

    async subscribe(listener) {
      await start();
      return notifier.subscribe(listener);
    },

    async unsubscribe(subscriptionId) {
      notifier.unsubscribe(subscriptionId);
    },

    async dispose() {
      disposed = true;
      if (wakeTimer !== null) clearTimeout(wakeTimer);
      lifetime.abort(new DOMException(ABORTED_BY_COMMAND, 'AbortError'));
      stopListeningOnline();
      for (const live of items.values()) stopAttempt(live);
      // Confirmed chunks still waiting for their batch are queued at once; every write then finishes.
      const written = flush();
      notifier.dispose();
      await written;
    },
  };
  return engine;
}
