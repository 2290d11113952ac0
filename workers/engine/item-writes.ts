/**
 * Every write of an item's record goes through here, one after another per item, mirrored in memory:
 * state changes (checked against the transition table when an attempt makes them), and confirmed
 * chunks saved in batches behind the lanes (CHUNK_PROGRESS_SAVE_MS) but never overtaken by a later
 * write.
 */
import { canTransition, type TransferState } from '../../common/transfer/states';
import type { TransferDb } from '../queue/db';
import { markChunksDone, putUploads, updateUpload } from '../queue/repository';
import type { UploadPatch, UploadRecord } from '../queue/types';
import { OvertakenByCommand, type LiveItem } from './live-item';

/**
 * Chunks the server confirmed are saved to the queue at most this often (and before any other write
 * of the item). Each save rewrites the whole record; one per chunk cost the engine's thread more than
 * sending the chunk (with 4 MiB chunks). The server's chunk list is what a resume trusts, but the
 * saved figure is what a reloaded page shows until it has asked: at 500 ms a reload showed up to half
 * a second of confirmed chunks less (issue 18: "progress drops after a reload"). With 16 MiB chunks
 * a save every 100 ms costs little.
 */
export const CHUNK_PROGRESS_SAVE_MS = 100;

export interface ItemWrites {
  write(id: string, patch: UploadPatch, attempt?: AbortSignal): Promise<UploadRecord>;
  transitionIfAllowed(id: string, to: TransferState, patch?: UploadPatch): Promise<boolean>;
  /** A chunk was confirmed: its save is queued (batched). */
  persistConfirmed(live: LiveItem): void;
  /**
   * Writes many items' patches in one transaction, after each item's earlier writes; items not in a
   * state of `onlyFrom` (when given), or whose change is not a legal transition, are left as they are.
   * Resolves with the ids written.
   */
  writeMany(patches: ReadonlyMap<string, UploadPatch>, onlyFrom?: ReadonlySet<TransferState>): Promise<Set<string>>;
  /**
   * A small-file batch starts: each of `ids` still 'waiting' becomes 'uploading' (error note cleared),
   * written only where more than the state changes. Resolves with the ids that started.
   */
  startMany(ids: readonly string[]): Promise<Set<string>>;
  /** Saves the batches still waiting, then waits for every write in progress (dispose). */
  flush(): Promise<void>;
}

/** `changed(prompt)`: an item's record changed; `prompt` when its state did (shown at once, not at the next interval). */
export function createItemWrites(db: TransferDb, items: ReadonlyMap<string, LiveItem>, now: () => number, changed: (prompt?: boolean) => void): ItemWrites {
  const writeChains = new Map<string, Promise<unknown>>();
  const notifier = { changed };

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

/** Runs `run` after every earlier write of each of `ids`, and makes their later writes wait for it. */
function serializeMany<T>(ids: readonly string[], run: () => Promise<T>): Promise<T> {
  const earlier = Promise.all(ids.map((id) => writeChains.get(id)));
  const next = earlier.then(run, run);
  const settled = next.catch(() => undefined);
  for (const id of ids) writeChains.set(id, settled);
  void settled.then(() => {
    for (const id of ids) if (writeChains.get(id) === settled) writeChains.delete(id);
  });
  return next;
}

/**
 * The patches applied to the in-memory records (which every write keeps equal to the stored ones, so
 * nothing is read back), written in one transaction. Checked here, in the chain, as updateUpload checks
 * inside its transaction: an item gone, in a state outside `onlyFrom`, or whose change is not a legal
 * transition is left as it is.
 */
function writeMany(patches: ReadonlyMap<string, UploadPatch>, onlyFrom?: ReadonlySet<TransferState>): Promise<Set<string>> {
  return serializeMany([...patches.keys()], async () => {
    const at = now();
    const written = new Map<string, UploadRecord>();
    for (const [id, patch] of patches) {
      const current = items.get(id)?.record;
      if (!current || (onlyFrom && !onlyFrom.has(current.state))) continue;
      if (patch.state !== undefined && patch.state !== current.state && !canTransition(current.state, patch.state)) continue;
      const { file: _file, ...fields } = patch; // a batch never changes files
      written.set(id, { ...current, ...fields, file: null, updatedAt: at });
    }
    await putUploads(db, [...written.values()]);
    for (const [id, record] of written) {
      const live = items.get(id);
      if (live) live.record = record;
    }
    // A batch's outcomes (已完成, held, failed) are state changes: shown at once, not with the next progress.
    notifier.changed([...written.keys()].some((id) => patches.get(id)?.state !== undefined));
    return new Set(written.keys());
  });
}

/**
 * A small-file batch starts: each of `ids` still 'waiting' becomes 'uploading' with no error shown.
 * Only in memory when nothing else changes: a reload (or a crash) makes every running item 'waiting'
 * again (the engine's load), which its stored record then still says — one transaction of 200 records
 * less per batch. An item that showed an error is written (the reload must not show it again).
 */
function startMany(ids: readonly string[]): Promise<Set<string>> {
  return serializeMany(ids, async () => {
    const started = new Map<string, UploadRecord>();
    const toStore: UploadRecord[] = [];
    for (const id of ids) {
      const current = items.get(id)?.record;
      if (!current || current.state !== 'waiting') continue;
      const next: UploadRecord = { ...current, state: 'uploading', lastError: null, file: null };
      started.set(id, next);
      if (current.lastError !== null) toStore.push({ ...next, updatedAt: now() });
    }
    await putUploads(db, toStore);
    for (const [id, record] of started) {
      const live = items.get(id);
      if (live) live.record = record;
    }
    if (started.size > 0) notifier.changed(true);
    return new Set(started.keys());
  });
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
    notifier.changed(patch.state !== undefined && patch.state !== current);
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
    notifier.changed(true);
    return true;
  });
}

  async function flush(): Promise<void> {
    for (const live of items.values()) if (live.confirmedTimer) saveConfirmedNow(live);
    await Promise.all([...writeChains.values()]);
  }

  return { write, writeMany, startMany, transitionIfAllowed, persistConfirmed, flush };
}
