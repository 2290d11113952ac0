/**
 * The transfer engine: owns the queue (persisted in Dexie), schedules up to DEFAULT_FILE_CONCURRENCY
 * items at once, applies the user's commands, retries transient failures, and publishes throttled
 * snapshots. Everything it touches from outside comes in through `EngineDeps`, so tests and a Node
 * replay can run it with their own fetch, clock, database and hasher.
 *
 * Consistency rule: every write of an item goes through `write()`, which serializes writes per item
 * and keeps the in-memory mirror equal to the database. A running attempt writes with its abort
 * signal; once aborted (pause, cancel), its state changes are dropped, so a command never races with
 * a late "done" or "retrying" from the attempt it stopped.
 */
import {
  DEFAULT_CHUNK_CONCURRENCY,
  DEFAULT_FILE_CONCURRENCY,
  RETRY_MAX_ATTEMPTS,
} from '../../common/transfer/constants';
import {
  DEFAULT_ENGINE_CONFIG,
  type EngineApi,
  type EngineConfig,
  type TransferItemView,
  type TransferSnapshot,
  type UploadTarget,
} from '../../common/transfer/engine-api';
import { canTransition, isActive, type TransferState } from '../../common/transfer/states';
import { createSha256Hex, type Sha256Hex } from '../hash/sha256';
import type { TransferDb } from '../queue/db';
import { addUploads, listUploads, markChunkDone, removeFinishedUploads, updateUpload } from '../queue/repository';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { createApiClient, type FetchFn } from './api-client';
import { abortableSleep, backoffDelayMs, type Sleep } from './backoff';
import { decideOnFailure } from './failure-policy';
import { newItemId } from './ids';
import { MESSAGES } from './messages';
import { NOTIFY_INTERVAL_MS, ThrottledNotifier } from './notifier';
import { etaSeconds, SpeedMeter } from './speed';
import { runUpload } from './upload-runner';

export interface EngineDeps {
  db: TransferDb;
  fetch: FetchFn;
  config?: EngineConfig;
  now?: () => number;
  random?: () => number;
  sleep?: Sleep;
  sha256?: Sha256Hex;
  newId?: (now: number) => string;
  fileConcurrency?: number;
  chunkConcurrency?: number;
  notifyIntervalMs?: number;
  /** Asks the browser not to evict the queue's storage; default: navigator.storage.persist when present. */
  requestPersistence?: () => void;
}

export interface Engine extends EngineApi<Blob> {
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
  speed: SpeedMeter;
}

const ABORTED_BY_COMMAND = 'transfer stopped by a command';

function defaultRequestPersistence(): void {
  const nav = (globalThis as { navigator?: { storage?: { persist?: () => Promise<boolean> } } }).navigator;
  nav?.storage?.persist?.().catch(() => undefined);
}

export function createEngine(deps: EngineDeps): Engine {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? abortableSleep;
  const sha256 = deps.sha256 ?? createSha256Hex();
  const newId = deps.newId ?? newItemId;
  const fileConcurrency = deps.fileConcurrency ?? DEFAULT_FILE_CONCURRENCY;
  const chunkConcurrency = deps.chunkConcurrency ?? DEFAULT_CHUNK_CONCURRENCY;
  let config: EngineConfig = deps.config ?? DEFAULT_ENGINE_CONFIG;
  const api = createApiClient(deps.fetch, () => config);

  /** Insertion order = queue order (loaded sorted by createdAt, then appended). */
  const items = new Map<string, LiveItem>();
  const writeChains = new Map<string, Promise<unknown>>();
  let running = 0;
  let starting: Promise<void> | null = null;
  let disposed = false;
  const notifier = new ThrottledNotifier<TransferSnapshot>(buildSnapshot, now, deps.notifyIntervalMs ?? NOTIFY_INTERVAL_MS);

  // ---- persistence ---------------------------------------------------------------------------

  /** Runs `fn` after every earlier write of item `id`. */
  function serialize<T>(id: string, fn: () => Promise<T>): Promise<T> {
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
   * Persists `patch` for item `id` and mirrors it in memory. With `attempt`, a state change from an
   * attempt that was aborted meanwhile is refused (rejects with the abort reason).
   */
  function write(id: string, patch: UploadPatch, attempt?: AbortSignal): Promise<UploadRecord> {
    return serialize(id, async () => {
      if (attempt?.aborted && patch.state !== undefined) throw attempt.reason;
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
    if (disposed || starting === null) return;
    for (const live of items.values()) {
      if (running >= fileConcurrency) break;
      if (live.record.state === 'waiting' && live.run === null) void drive(live);
    }
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
          await runUpload({
            record: live.record,
            file: live.file,
            signal,
            api,
            sha256,
            chunkConcurrency,
            update: (patch) => write(id, patch, signal),
            chunkDone: async (index, bytes) => {
              await serialize(id, async () => {
                const updated = await markChunkDone(db, id, index, bytes, now());
                if (updated) live.record = updated;
              });
              live.speed.record(bytes, now());
              notifier.changed();
            },
            onHashProgress: (bytesHashed) => {
              live.hashedBytes = bytesHashed;
              notifier.changed();
            },
          });
          return;
        } catch (error) {
          if (signal.aborted) return; // the command that aborted us has set the state
          const decision = decideOnFailure(error);
          const attempts = live.record.attempts + 1;
          if (decision.action === 'retry' && attempts < RETRY_MAX_ATTEMPTS) {
            await write(id, { ...decision.patch, state: 'retrying', attempts, lastError: decision.message }, signal);
            live.speed.reset();
            await sleep(backoffDelayMs(attempts, random), signal);
            live.speed.start(now());
            continue;
          }
          const message = decision.action === 'retry' ? decision.finalMessage : decision.message;
          await write(id, { state: decision.action === 'hold' ? 'held' : 'failed', attempts, lastError: message }, signal);
          return;
        }
      }
    } catch (error) {
      // Only an abort (or the item vanishing under clearFinished) ends up here; anything else is a bug.
      if (!signal.aborted && items.has(id)) console.error('transfer engine: unexpected error', error);
    } finally {
      if (live.run === controller) live.run = null;
      running--;
      live.hashedBytes = 0;
      live.speed.reset();
      notifier.changed();
      pump();
    }
  }

  function stopAttempt(live: LiveItem): void {
    live.run?.abort(new DOMException(ABORTED_BY_COMMAND, 'AbortError'));
  }

  // ---- start-up ------------------------------------------------------------------------------

  async function load(): Promise<void> {
    (deps.requestPersistence ?? defaultRequestPersistence)();
    for (const record of await listUploads(db)) {
      items.set(record.id, { record, file: record.file, run: null, hashedBytes: 0, speed: new SpeedMeter() });
    }
    for (const live of items.values()) {
      const { id, state } = live.record;
      // The page died mid-transfer: queue it again; chunk/exist will say which chunks survived.
      if (isActive(state)) await transitionIfAllowed(id, 'waiting');
      if (live.record.state === 'waiting' && !live.file) {
        await transitionIfAllowed(id, 'held', { lastError: MESSAGES.fileUnreadable });
      }
    }
  }

  function start(): Promise<void> {
    starting ??= load().then(pump);
    return starting;
  }

  // ---- views ---------------------------------------------------------------------------------

  function toView(live: LiveItem): TransferItemView {
    const r = live.record;
    const active = live.run !== null && isActive(r.state);
    const speed = active ? live.speed.bytesPerSecond : 0;
    const view: TransferItemView = {
      id: r.id,
      direction: r.direction,
      name: r.name,
      size: r.size,
      bytesDone: r.bytesDone,
      state: r.state,
      speed,
      etaSeconds: active && r.state === 'uploading' ? etaSeconds(r.size - r.bytesDone, speed) : null,
      lastError: r.lastError,
      target: r.target,
      fileId: r.fileId,
      createdAt: r.createdAt,
    };
    if (r.state === 'hashing') view.hashedBytes = live.hashedBytes;
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

  function liveItem(id: string): LiveItem | undefined {
    return items.get(id);
  }

  const engine: Engine = {
    start,

    async configure(next) {
      config = { ...next };
      await start();
    },

    async enqueueUploads(files, target: UploadTarget) {
      await start();
      const createdAt = now();
      const records: UploadRecord[] = files.map((file) => ({
        id: newId(createdAt),
        direction: 'upload',
        name: file instanceof File ? file.name : 'untitled',
        size: file.size,
        lastModified: file instanceof File ? file.lastModified : createdAt,
        type: file.type,
        file,
        target: { ...target },
        state: 'waiting',
        bytesDone: 0,
        chunkSize: 0,
        chunkDigests: null,
        fingerprint: null,
        uploadId: null,
        chunksDone: [],
        attempts: 0,
        lastError: null,
        fileId: null,
        createdAt,
        updatedAt: createdAt,
      }));
      try {
        await addUploads(db, records);
      } catch (error) {
        // Some stores refuse Blobs (DataCloneError). Keep the queue persistent anyway; the bytes stay
        // in memory for this page, and after a reload the item is held until the file is picked again.
        if (!(error instanceof Error && error.name === 'DataCloneError')) throw error;
        await addUploads(db, records.map((r) => ({ ...r, file: null })));
      }
      for (const record of records) {
        items.set(record.id, { record, file: record.file, run: null, hashedBytes: 0, speed: new SpeedMeter() });
      }
      notifier.changed();
      pump();
      return records.map((r) => r.id);
    },

    async pause(id) {
      await start();
      const live = liveItem(id);
      if (!live) return;
      stopAttempt(live);
      await transitionIfAllowed(id, 'paused');
    },

    async resume(id) {
      await start();
      const live = liveItem(id);
      if (!live) return;
      if (live.record.state === 'failed' || live.record.state === 'held') return engine.retry(id);
      if (await transitionIfAllowed(id, 'waiting')) pump();
    },

    async cancel(id) {
      await start();
      const live = liveItem(id);
      if (!live) return;
      stopAttempt(live);
      await transitionIfAllowed(id, 'cancelled');
    },

    async retry(id) {
      await start();
      const live = liveItem(id);
      if (!live) return;
      const state = live.record.state;
      if (state !== 'failed' && state !== 'held' && state !== 'paused') return;
      if (await transitionIfAllowed(id, 'waiting', { attempts: 0, lastError: null })) pump();
    },

    async clearFinished() {
      await start();
      for (const id of await removeFinishedUploads(db)) items.delete(id);
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
      for (const live of items.values()) stopAttempt(live);
      notifier.dispose();
      await Promise.all([...writeChains.values()]);
    },
  };
  return engine;
}
