/**
 * The transfer engine: owns the queue (persisted in Dexie), schedules up to `fileConcurrency` items
 * at once, applies the user's commands, retries transient failures, waits out offline periods, and
 * publishes throttled snapshots. Everything it touches from outside comes in through `EngineDeps`, so
 * tests and a Node replay can run it with their own fetch, transport, clock, database and hashers.
 *
 * Consistency rule: every write of an item goes through `write()`, which serializes writes per item
 * and keeps the in-memory mirror equal to the database. A running attempt writes with its abort
 * signal; once aborted (pause, cancel), its state changes are dropped, so a command never races with
 * a late "done" or "retrying" from the attempt it stopped.
 */
import { API } from '../../common/api/paths';
import type { UploadCandidate } from '../../common/transfer/checks';
import { DEFAULT_CHUNK_CONCURRENCY, DEFAULT_FILE_CONCURRENCY, RETRY_MAX_ATTEMPTS, STALL_TIMEOUT_MS } from '../../common/transfer/constants';
import {
  DEFAULT_ENGINE_CONFIG,
  type DownloadRequest,
  type NewVersionTarget,
  type EngineApi,
  type EngineConfig,
  type FolderEntry,
  type HeldDecision,
  type TransferItemView,
  type TransferSnapshot,
  type UploadTarget,
} from '../../common/transfer/engine-api';
import { canTransition, isActive, isFinal, type TransferState } from '../../common/transfer/states';
import { createDefaultPieceStore, type PieceStore } from '../downloads/piece-store';
import { runDownload } from '../downloads/download-runner';
import { createInThreadHashChunk, createSha256Hex, type HashChunk, type Sha256Hex } from '../hash/sha256';
import type { TransferDb } from '../queue/db';
import { addUploads, listUploads, markChunksDone, removeFinishedUploads, updateUpload } from '../queue/repository';
import { newUploadRecord as initialUploadRecord } from '../queue/records';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { ConcurrencyLimit } from './adaptive-pool';
import { createApiClient, type FetchFn } from './api-client';
import { abortableSleep, backoffDelayMs, type Sleep } from './backoff';
import { checkBatch, type CheckOutcome } from './pre-upload-checks';
import { decideOnFailure } from './failure-policy';
import { createFolders, folderOf, folderPaths, normalizePath } from './folders';
import { newItemId } from './ids';
import { MESSAGES } from './messages';
import { NOTIFY_INTERVAL_MS, ThrottledNotifier } from './notifier';
import { browserOnlineSignal, waitUntilOnline, type OnlineSignal } from './online';
import { toQueueExport } from './queue-export';
import { fingerprintMatches } from './reattach';
import { etaSeconds, SpeedMeter } from './speed';
import { defaultChunkTransport, withStallDetection, type ChunkTransport } from './transport';
import { runUpload } from './upload-runner';

export interface EngineDeps {
  db: TransferDb;
  /** JSON calls, downloads, and chunk bodies when no `transport` is given and there is no XHR. */
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
  /** Sends chunk bodies with byte progress. Default: XMLHttpRequest where present, else `fetch`. */
  transport?: ChunkTransport;
  /** A chunk request with no progress for this long is aborted and retried. Default STALL_TIMEOUT_MS. */
  stallTimeoutMs?: number;
  /** Network up/down. Default: navigator.onLine and the 'online'/'offline' events (always online in Node). */
  onlineSignal?: OnlineSignal;
  /** Where download pieces are kept. Default: OPFS when available, else Dexie `downloadPieces`. */
  pieceStore?: PieceStore;
  /** Range request size of downloads (tests use small pieces). Default DOWNLOAD_PIECE_SIZE. */
  downloadPieceSize?: number;
  newId?: (now: number) => string;
  fileConcurrency?: number;
  /** Most chunk requests in flight per item (429 answers lower it for a while). */
  chunkConcurrency?: number;
  notifyIntervalMs?: number;
  /** Asks the browser not to evict the queue's storage; default: navigator.storage.persist when present. */
  requestPersistence?: () => void;
}

export interface Engine extends EngineApi<Blob> {
  /** A File built from the stored pieces (File is a Blob, so this narrows the shared signature). */
  getDownloadedFile(id: string): Promise<File | null>;
  /** Loads the persisted queue and starts scheduling; called implicitly by every other method. */
  start(): Promise<void>;
  /** Aborts every attempt and stops notifying (tests, worker shutdown). Persisted state is kept. */
  dispose(): Promise<void>;
}

/** In-memory state of one item next to its persisted record. */
interface LiveItem {
  record: UploadRecord;
  /** The bytes; may exist only here when IndexedDB refused to store the File. */
  file: Blob | null;
  /** The attempt currently running, if any. */
  run: AbortController | null;
  hashedBytes: number;
  /** Bytes sent so far of chunks in flight (not yet confirmed), by chunk index. */
  inflight: Map<number, number>;
  /** Chunks the server confirmed that are not in `record` yet (index → bytes): written in batches. */
  confirmed: Map<number, number>;
  /** The batch write that will take the chunks confirmed until it starts, if one is queued. */
  confirmedWrite: Promise<void> | null;
  /** Set while confirmations wait for CHUNK_PROGRESS_SAVE_MS before their batch is queued. */
  confirmedTimer: ReturnType<typeof setTimeout> | null;
  /**
   * How many chunks were known stored at the last failed attempt. Attempts count failures in a row:
   * an upload that keeps making progress — chunks confirmed, or found stored by the server when an
   * attempt asks chunk/exist (a chunk whose answer was lost on the way) — never runs out of them.
   * Kept here, not in the record: the record's progress is saved in batches, and a failure written
   * before its batch would count on.
   */
  doneAtLastFailure: number;
  speed: SpeedMeter;
}

const ABORTED_BY_COMMAND = 'transfer stopped by a command';

/**
 * Chunks the server confirmed are saved to the queue at most this often (and before any other write
 * of the item). Each save rewrites the whole record; one per chunk cost the engine's thread more than
 * sending the chunk. What a late save could lose (after a crash) is a progress figure: the server's
 * chunk list is what a resume trusts.
 */
export const CHUNK_PROGRESS_SAVE_MS = 500;

/**
 * An attempt tried to change the state after a command had moved the item (e.g. an attempt that
 * started just as pauseAll ran): the command wins, the attempt ends quietly.
 */
class OvertakenByCommand extends Error {
  constructor() {
    super(ABORTED_BY_COMMAND);
    this.name = 'OvertakenByCommand';
  }
}
/** Holds the server knows about (multipleFile/check recorded them): decisions are reported to it. */
const SERVER_HOLDS = new Set(['exists', 'sensitive', 'locked']);
/** Downloads have no upload target; the view still needs one. */
const DOWNLOAD_TARGET: UploadTarget = { parentId: null, category: 1 };

function defaultRequestPersistence(): void {
  const nav = (globalThis as { navigator?: { storage?: { persist?: () => Promise<boolean> } } }).navigator;
  nav?.storage?.persist?.().catch(() => undefined);
}

function isDataCloneError(error: unknown): boolean {
  return error instanceof Error && error.name === 'DataCloneError';
}

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
  const pieceStore = deps.pieceStore ?? createDefaultPieceStore(db);
  const transport = withStallDetection(deps.transport ?? defaultChunkTransport(deps.fetch), deps.stallTimeoutMs ?? STALL_TIMEOUT_MS);
  let config: EngineConfig = deps.config ?? DEFAULT_ENGINE_CONFIG;
  const api = createApiClient(deps.fetch, () => config, transport);

  /** Insertion order = queue order (loaded sorted by createdAt, then appended). */
  const items = new Map<string, LiveItem>();
  const writeChains = new Map<string, Promise<unknown>>();
  /** Aborts engine-level calls (checks, folder creation) on dispose. */
  const lifetime = new AbortController();
  let running = 0;
  let starting: Promise<void> | null = null;
  let disposed = false;
  const notifier = new ThrottledNotifier<TransferSnapshot>(buildSnapshot, now, deps.notifyIntervalMs ?? NOTIFY_INTERVAL_MS);
  const stopListeningOnline = online.subscribe((up) => {
    if (up) pump();
  });

  // ---- persistence ---------------------------------------------------------------------------

  /**
   * Runs `fn` after every earlier write of item `id`. Confirmed chunks still waiting for their save
   * are queued first, so a later write (a state change, the merge's 'done') never overtakes them.
   */
  function serialize<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const live = items.get(id);
    if (live?.confirmedTimer) saveConfirmedNow(live);
    const previous = writeChains.get(id) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    const settled = next.catch(() => undefined);
    writeChains.set(id, settled);
    void settled.then(() => {
      if (writeChains.get(id) === settled) writeChains.delete(id);
    });
    return next;
  }

  /**
   * Saves the chunks confirmed so far, CHUNK_PROGRESS_SAVE_MS after the first of them: one transaction
   * queued behind the item's other writes takes every confirmation that arrived until it starts. A
   * lane never waits for it. The confirmed bytes count in the view meanwhile.
   */
  function persistConfirmed(live: LiveItem): void {
    if (live.confirmedWrite || live.confirmedTimer) return;
    live.confirmedTimer = setTimeout(() => saveConfirmedNow(live), CHUNK_PROGRESS_SAVE_MS);
  }

  function saveConfirmedNow(live: LiveItem): void {
    if (live.confirmedTimer) clearTimeout(live.confirmedTimer);
    live.confirmedTimer = null;
    if (live.confirmedWrite) return;
    const id = live.record.id;
    const written = serialize(id, async () => {
      live.confirmedWrite = null;
      const batch = new Map(live.confirmed);
      const updated = await markChunksDone(db, id, batch, now());
      if (updated) live.record = updated;
      for (const index of batch.keys()) live.confirmed.delete(index);
      notifier.changed();
    });
    live.confirmedWrite = written;
    // Nobody awaits a batch: a failed one (the database went away) is reported, and the chunks stay
    // counted in memory; the server's chunk list is what a resume trusts anyway.
    written.catch((error: unknown) => {
      if (items.has(id)) console.warn('transfer engine: chunk progress not saved', error);
    });
  }

  /**
   * Persists `patch` for item `id` and mirrors it in memory. With `attempt`, a state change from an
   * attempt that was aborted meanwhile is refused (rejects with the abort reason).
   */
  function write(id: string, patch: UploadPatch, attempt?: AbortSignal): Promise<UploadRecord> {
    return serialize(id, async () => {
      if (attempt?.aborted && patch.state !== undefined) throw attempt.reason;
      const current = items.get(id)?.record.state;
      if (attempt && patch.state !== undefined && current !== undefined && current !== patch.state && !canTransition(current, patch.state)) {
        throw new OvertakenByCommand();
      }
      const updated = await updateUpload(db, id, patch, now());
      const live = items.get(id);
      if (!updated || !live) throw new Error(`transfer item ${id} no longer exists`);
      live.record = updated;
      notifier.changed();
      return updated;
    });
  }

  /** Moves item `id` to `to` (with `patch`) if the table allows it from its current state; else no-op. */
  function transitionIfAllowed(id: string, to: TransferState, patch: UploadPatch = {}): Promise<boolean> {
    return serialize(id, async () => {
      const live = items.get(id);
      if (!live || !canTransition(live.record.state, to)) return false;
      const updated = await updateUpload(db, id, { ...patch, state: to }, now());
      if (updated) live.record = updated;
      notifier.changed();
      return true;
    });
  }

  // ---- scheduling ----------------------------------------------------------------------------

  function pump(): void {
    // Offline, nothing starts: items stay 'waiting' and the 'online' event pumps again.
    if (disposed || starting === null || !online.isOnline()) return;
    for (const live of items.values()) {
      if (running >= fileConcurrency) break;
      if (live.record.state === 'waiting' && live.run === null) void drive(live);
    }
  }

  function runAttempt(live: LiveItem, signal: AbortSignal): Promise<void> {
    const id = live.record.id;
    const update = (patch: UploadPatch) => write(id, patch, signal);
    if (live.record.direction === 'download') {
      return runDownload({
        record: live.record,
        signal,
        api,
        store: pieceStore,
        ...(deps.downloadPieceSize ? { pieceSize: deps.downloadPieceSize } : {}),
        update,
        onPieceProgress: (buffered) => {
          // Index 0 of `inflight` stands for the piece being received; stored pieces are in bytesDone.
          const before = live.inflight.get(0) ?? 0;
          if (buffered > before) live.speed.record(buffered - before, now());
          if (buffered > 0) live.inflight.set(0, buffered);
          else live.inflight.delete(0);
          notifier.changed();
        },
      });
    }
    const limit = new ConcurrencyLimit(live.record.chunkConcurrency || chunkConcurrency, chunkConcurrency, now, (value) => {
      void write(id, { chunkConcurrency: value }).catch(() => undefined);
    });
    return runUpload({
      record: live.record,
      file: live.file,
      signal,
      api,
      sha256,
      hashChunk,
      hashConcurrency,
      limit,
      sleep,
      random,
      update,
      chunkProgress: (index, sent) => {
        const before = live.inflight.get(index) ?? 0;
        if (sent > 0) live.inflight.set(index, sent);
        else live.inflight.delete(index);
        if (sent > before) live.speed.record(sent - before, now());
        notifier.changed();
      },
      chunkDone: (index, bytes) => {
        const before = live.inflight.get(index) ?? 0;
        live.inflight.delete(index);
        live.confirmed.set(index, bytes);
        if (bytes > before) live.speed.record(bytes - before, now());
        notifier.changed();
        persistConfirmed(live);
      },
      onHashProgress: (bytesHashed) => {
        live.hashedBytes = bytesHashed;
        notifier.changed();
      },
    });
  }

  /** Runs attempts of one item until it is done, gives up, is held, or is stopped by a command. */
  async function drive(live: LiveItem): Promise<void> {
    const controller = new AbortController();
    const { signal } = controller;
    const id = live.record.id;
    live.run = controller;
    running++;
    live.speed.start(now());
    try {
      for (;;) {
        try {
          await runAttempt(live, signal);
          return;
        } catch (error) {
          // The command that aborted (or overtook) us has set the state.
          if (signal.aborted || error instanceof OvertakenByCommand) return;
          live.inflight.clear();
          const decision = decideOnFailure(error);
          if (decision.action === 'retry' && decision.network && !online.isOnline()) {
            // Offline: wait for the network without spending an attempt, then go on by ourselves.
            await write(id, { state: 'retrying', lastError: MESSAGES.offline }, signal);
            live.speed.reset();
            await waitUntilOnline(online, signal);
            live.speed.start(now());
            continue;
          }
          const done = live.record.chunksDone.length + live.confirmed.size;
          const attempts = (done > live.doneAtLastFailure ? 0 : live.record.attempts) + 1;
          live.doneAtLastFailure = done;
          if (decision.action === 'retry' && attempts < RETRY_MAX_ATTEMPTS) {
            await write(id, { ...decision.patch, state: 'retrying', attempts, lastError: decision.message }, signal);
            live.speed.reset();
            await sleep(decision.retryAfterMs ?? backoffDelayMs(attempts, random), signal);
            live.speed.start(now());
            continue;
          }
          const message = decision.action === 'retry' ? decision.finalMessage : decision.message;
          const holdReason = decision.action === 'retry' ? null : (decision.holdReason ?? null);
          await write(id, { state: decision.action === 'hold' ? 'held' : 'failed', attempts, lastError: message, holdReason }, signal);
          return;
        }
      }
    } catch (error) {
      // Only an abort (or the item vanishing under clearFinished) ends up here; anything else is a bug.
      if (!signal.aborted && !(error instanceof OvertakenByCommand) && items.has(id)) console.error('transfer engine: unexpected error', error);
    } finally {
      if (live.run === controller) live.run = null;
      running--;
      live.hashedBytes = 0;
      live.inflight.clear();
      live.speed.reset();
      notifier.changed();
      pump();
    }
  }

  function stopAttempt(live: LiveItem): void {
    live.run?.abort(new DOMException(ABORTED_BY_COMMAND, 'AbortError'));
  }

  function liveOf(record: UploadRecord, file: Blob | null): LiveItem {
    return { record, file, run: null, hashedBytes: 0, inflight: new Map(), confirmed: new Map(), confirmedWrite: null, confirmedTimer: null, doneAtLastFailure: record.chunksDone.length, speed: new SpeedMeter() };
  }

  // ---- start-up ------------------------------------------------------------------------------

  async function load(): Promise<void> {
    (deps.requestPersistence ?? defaultRequestPersistence)();
    for (const record of await listUploads(db)) items.set(record.id, liveOf(record, record.file));
    for (const live of items.values()) {
      const { id, state, direction } = live.record;
      // The page died mid-transfer: queue it again; chunk/exist (or the piece store) says what survived.
      if (isActive(state)) await transitionIfAllowed(id, 'waiting');
      if (direction === 'upload' && live.record.state === 'waiting' && !live.file) {
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

  /**
   * Runs the pre-upload checks for the batch. A server without the check (or a failed call) lets the
   * batch through: the server enforces the same rules again at merge.
   */
  async function preUploadChecks(records: UploadRecord[]): Promise<Map<string, CheckOutcome>> {
    const candidates: UploadCandidate[] = records.map((r) => ({ key: r.id, name: r.name, size: r.size, parentId: r.target.parentId, category: r.target.category }));
    try {
      return await checkBatch(api, candidates, lifetime.signal);
    } catch (error) {
      if (lifetime.signal.aborted) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      console.warn(`transfer engine: pre-upload checks unavailable (${reason}); the server enforces them at merge`);
      return new Map();
    }
  }

  /** Checks, persists and schedules new upload records (the records start in their checked state). */
  async function addChecked(records: UploadRecord[]): Promise<string[]> {
    const outcomes = await preUploadChecks(records);
    for (const record of records) {
      const outcome = outcomes.get(record.id);
      // A new version was asked for up front: the existing name is the point, not a question.
      if (outcome?.holdReason === 'exists' && record.onConflict === 'newVersion') continue;
      Object.assign(record, outcome ?? {});
    }
    try {
      await addUploads(db, records);
    } catch (error) {
      // Some stores refuse Blobs (DataCloneError). Keep the queue persistent anyway; the bytes stay
      // in memory for this page, and after a reload the item is held until the file is picked again.
      if (!isDataCloneError(error)) throw error;
      await addUploads(db, records.map((r) => ({ ...r, file: null })));
    }
    for (const record of records) items.set(record.id, liveOf(record, record.file));
    notifier.changed();
    pump();
    return records.map((r) => r.id);
  }

  // ---- views ---------------------------------------------------------------------------------

  function toView(live: LiveItem): TransferItemView {
    const r = live.record;
    const active = live.run !== null && isActive(r.state);
    const speed = active ? live.speed.bytesPerSecond : 0;
    let inflight = 0;
    for (const bytes of live.inflight.values()) inflight += bytes;
    for (const bytes of live.confirmed.values()) inflight += bytes;
    const bytesDone = Math.min(r.size, r.bytesDone + inflight);
    const view: TransferItemView = {
      id: r.id,
      direction: r.direction,
      name: r.name,
      size: r.size,
      bytesDone,
      state: r.state,
      speed,
      etaSeconds: active && r.state === 'uploading' ? etaSeconds(r.size - bytesDone, speed) : null,
      lastError: r.lastError,
      target: r.target,
      fileId: r.fileId,
      createdAt: r.createdAt,
      holdReason: r.holdReason,
    };
    if (r.state === 'hashing') view.hashedBytes = live.hashedBytes;
    if (r.relativePath) view.relativePath = r.relativePath;
    if (r.via) view.via = r.via;
    return view;
  }

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
    if (state === 'failed') return holdReason !== 'blockedType';
    if (state === 'held') return holdReason === null || holdReason === 'unauthorized';
    return state === 'paused';
  }

  const engine: Engine = {
    start,

    async configure(next) {
      config = { ...next };
      await start();
    },

    async enqueueUploads(files, target) {
      await start();
      const createdAt = now();
      return addChecked(files.map((file) => newUploadRecord(file, target, createdAt, null)));
    },

    async enqueueFolder(entries: FolderEntry<Blob>[], target) {
      await start();
      const paths = entries.map((e) => normalizePath(e.relativePath));
      const folderIds = await createFolders(api, folderPaths(paths), target, lifetime.signal);
      const createdAt = now();
      const records = entries.map((entry, i) => {
        const path = paths[i] as string;
        const parentId = folderIds.get(folderOf(path)) ?? target.parentId;
        return newUploadRecord(entry.file, { parentId, category: target.category }, createdAt, path);
      });
      return addChecked(records);
    },

    async enqueueNewVersion(file: Blob, target: NewVersionTarget) {
      await start();
      const record: UploadRecord = {
        ...newUploadRecord(file, { parentId: target.parentId, category: target.category }, now(), null),
        name: target.name,
        onConflict: 'newVersion',
      };
      const [id] = await addChecked([record]);
      return id as string;
    },

    async enqueueDownload(request: DownloadRequest) {
      await start();
      const createdAt = now();
      const record: UploadRecord = {
        ...newUploadRecord(new Blob([]), DOWNLOAD_TARGET, createdAt, null),
        direction: 'download',
        name: request.name,
        size: request.size,
        file: null,
        fileId: request.fileId,
      };
      await addUploads(db, [record]);
      items.set(record.id, liveOf(record, null));
      notifier.changed();
      pump();
      return record.id;
    },

    async getDownloadedFile(id) {
      await start();
      const live = items.get(id);
      if (!live || live.record.direction !== 'download' || live.record.state !== 'done') return null;
      const blob = (await pieceStore.read(id)) ?? (live.record.size === 0 ? new Blob([]) : null);
      if (!blob || blob.size !== live.record.size) return null;
      return new File([blob], live.record.name);
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
      const cancelled = await transitionIfAllowed(id, 'cancelled');
      stopAttempt(live); // an attempt the scheduler started meanwhile
      if (cancelled && live.record.direction === 'download') await pieceStore.remove(id);
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

    async decide(id, decision: HeldDecision) {
      await start();
      const live = items.get(id);
      if (!live || live.record.state !== 'held') return;
      const reason = live.record.holdReason;
      const known = reason !== null && SERVER_HOLDS.has(reason);
      if (decision === 'giveUp') {
        if (known) await api.getJson(`${API.giveUpUpload}?key=${encodeURIComponent(id)}`, lifetime.signal);
        await engine.cancel(id);
        return;
      }
      if (reason === 'locked' && decision === 'newVersion') {
        throw new Error('a locked file cannot get a new version: rename or give up');
      }
      if (known) await api.getJson(`${API.keepOnUpload}?key=${encodeURIComponent(id)}&policy=${decision}`, lifetime.signal);
      const patch: UploadPatch = { onConflict: decision, holdReason: null, lastError: null, attempts: 0 };
      if (await transitionIfAllowed(id, 'waiting', patch)) pump();
    },

    async reattach(id, file) {
      await start();
      const live = items.get(id);
      if (!live || live.record.direction !== 'upload' || live.record.state !== 'held') return false;
      if (live.record.holdReason !== 'fileMissing' && live.file) return false;
      if (!(await fingerprintMatches(live.record, file, hashChunk, sha256, lifetime.signal))) return false;
      live.file = file;
      try {
        await write(id, { file });
      } catch (error) {
        if (!isDataCloneError(error)) throw error; // kept in memory only, as at enqueue
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
      for (const id of await removeFinishedUploads(db)) {
        if (items.get(id)?.record.direction === 'download') await pieceStore.remove(id);
        items.delete(id);
      }
      notifier.changed();
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
      lifetime.abort(new DOMException(ABORTED_BY_COMMAND, 'AbortError'));
      stopListeningOnline();
      for (const live of items.values()) {
        stopAttempt(live);
        if (live.confirmedTimer) saveConfirmedNow(live);
      }
      notifier.dispose();
      await Promise.all([...writeChains.values()]);
    },
  };
  return engine;
}
