/**
 * Typed access to the persisted upload queue. Every state change goes through `updateUpload`, which
 * checks it against the transition table inside the same transaction as the write, so no code path
 * can persist an illegal transition.
 */
import { assertTransition, isFinal, TRANSFER_STATES } from '../../common/transfer/states';
import type { SourceRecord, TransferDb } from './db';
import type { UploadPatch, UploadRecord } from './types';

const FINAL_STATES = TRANSFER_STATES.filter(isFinal);

/**
 * Files live in `sources`, records with `file: null` (db.ts, v4): a record is rewritten many times per
 * upload and must not carry the File each time. Records returned by the writes below carry `file: null`
 * too (the engine keeps the bytes in memory, LiveItem.file); getUpload and listUploads attach them.
 */
function stored(record: UploadRecord): UploadRecord {
  return record.file === null ? record : { ...record, file: null };
}

function sourcesOf(records: readonly UploadRecord[]): SourceRecord[] {
  return records.flatMap((r) => (r.file ? [{ id: r.id, file: r.file }] : []));
}

/** Adds records and their files in one transaction (a refused file refuses the whole add). */
export async function addUploads(db: TransferDb, records: UploadRecord[]): Promise<void> {
  await db.transaction('rw', db.uploads, db.sources, async () => {
    await db.uploads.bulkAdd(records.map(stored));
    const sources = sourcesOf(records);
    if (sources.length > 0) await db.sources.bulkAdd(sources);
  });
}

export async function getUpload(db: TransferDb, id: string): Promise<UploadRecord | undefined> {
  return db.transaction('r', db.uploads, db.sources, async () => {
    const record = await db.uploads.get(id);
    if (!record) return undefined;
    return { ...record, file: (await db.sources.get(id))?.file ?? null };
  });
}

/** All items, oldest first (the order they were queued in), with their files. */
export async function listUploads(db: TransferDb): Promise<UploadRecord[]> {
  return db.transaction('r', db.uploads, db.sources, async () => {
    const records = await db.uploads.orderBy('createdAt').toArray();
    const files = new Map((await db.sources.toArray()).map((s) => [s.id, s.file]));
    return records.map((r) => ({ ...r, file: files.get(r.id) ?? null }));
  });
}

/** Keeps (or, with null, forgets) an item's file: a re-pick, or a store that refused the bytes. */
export async function putSource(db: TransferDb, id: string, file: Blob | null): Promise<void> {
  if (file) await db.sources.put({ id, file });
  else await db.sources.delete(id);
}

/**
 * Applies `patch` to item `id` and returns the new record (undefined when the item no longer exists).
 * A patch that keeps the state unchanged is not a transition and is always allowed; any other state
 * change must be in TRANSITIONS, else this throws and nothing is written.
 */
export async function updateUpload(db: TransferDb, id: string, patch: UploadPatch, now: number): Promise<UploadRecord | undefined> {
  const { file, ...fields } = patch;
  return db.transaction('rw', db.uploads, db.sources, async () => {
    const current = await db.uploads.get(id);
    if (!current) return undefined;
    if (fields.state !== undefined && fields.state !== current.state) assertTransition(current.state, fields.state);
    const next: UploadRecord = { ...current, ...fields, file: null, updatedAt: now };
    await db.uploads.put(next);
    if (file !== undefined) await putSource(db, id, file);
    return next;
  });
}

/**
 * Writes many whole records in one transaction (a small-file batch: one write for all its items instead
 * of one per item). The engine computes them from its in-memory mirror of the queue, which its writes
 * keep equal to the stored records (workers/engine/item-writes.ts), so nothing is read back first.
 */
export async function putUploads(db: TransferDb, records: readonly UploadRecord[]): Promise<void> {
  if (records.length === 0) return;
  await db.transaction('rw', db.uploads, async () => {
    await db.uploads.bulkPut(records.map(stored));
  });
}

/**
 * Records that the server holds the chunks of `chunks` (index → bytes), keeping the map sorted and
 * duplicate-free; an index already recorded adds no bytes. One transaction, so parallel completions
 * never lose each other's entries, and several completions cost one write.
 */
export async function markChunksDone(db: TransferDb, id: string, chunks: ReadonlyMap<number, number>, now: number): Promise<UploadRecord | undefined> {
  return db.transaction('rw', db.uploads, async () => {
    const current = await db.uploads.get(id);
    if (!current) return undefined;
    const known = new Set(current.chunksDone);
    let added = 0;
    for (const [index, bytes] of chunks) {
      if (known.has(index)) continue;
      known.add(index);
      added += bytes;
    }
    if (known.size === current.chunksDone.length) return current;
    const chunksDone = [...known].sort((a, b) => a - b);
    const next: UploadRecord = { ...current, chunksDone, bytesDone: current.bytesDone + added, attempts: 0, updatedAt: now };
    await db.uploads.put(next);
    return next;
  });
}

/** Deletes finished (done / cancelled) items; returns their ids. */
export async function removeFinishedUploads(db: TransferDb): Promise<string[]> {
  return db.transaction('rw', db.uploads, db.sources, async () => {
    // Keys only, through the state index: no record (and no File reference) is loaded.
    const finished = await db.uploads.where('state').anyOf(FINAL_STATES).primaryKeys();
    await db.uploads.bulkDelete(finished);
    await db.sources.bulkDelete(finished);
    return finished;
  });
}

/** Deletes one item and its file, whatever its state (the engine stops it first). */
export async function removeUpload(db: TransferDb, id: string): Promise<void> {
  await db.transaction('rw', db.uploads, db.sources, async () => {
    await db.uploads.delete(id);
    await db.sources.delete(id);
  });
}
