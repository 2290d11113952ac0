/**
 * The IndexedDB database holding the transfer queue, so uploads survive a reload or a crash.
 *
 * Schema changes: never edit a released `version(n)` block. Add `version(n + 1).stores(...)` with only
 * the changed tables and, when existing rows must be rewritten, an `.upgrade(tx => ...)`. Dexie runs
 * every missing step in order on open, so a browser still on version 1 migrates straight to the newest.
 *
 * v1: uploads.
 * v2: new item fields (relativePath, holdReason, via, chunkConcurrency, onConflict, etag; direction may
 *     be 'download'), an index on direction, and `downloadPieces` (the Dexie piece store of downloads).
 * v3: downloads left the engine (the browser downloads files itself): download items and
 *     `downloadPieces` are deleted.
 * v4: each item's File moved to `sources` (id → { id, file }), written when the item is added or its
 *     file re-picked and never again. In Chromium every get and put of a record holding a File costs the
 *     browser process ~25–35 ms for a 512 MiB file, and an item's record is rewritten dozens of times
 *     per upload (chunk confirmations): 2.4 CPU-s per 512 MiB (tests/bench/PROFILE-browser-upload.md).
 *     Records keep `file: null` in storage; the repository attaches the source when it loads items.
 * v5: `meta` (key → value): what the engine keeps between sessions besides the queue — the tenant's
 *     blocked upload types as canBeUploadType last answered (upload-types.ts), so a pick made offline
 *     is judged at once.
 */
import Dexie, { type EntityTable } from 'dexie';
import { DEFAULT_CHUNK_CONCURRENCY } from '../../common/transfer/constants';
import type { UploadRecord } from './types';

export const TRANSFER_DB_NAME = 'transfer-engine';
export const TRANSFER_DB_VERSION = 5;

/** An item's bytes, kept apart from its often rewritten record (see v4). */
export interface SourceRecord {
  id: string;
  file: Blob;
}

/** One value the engine keeps between sessions (v5). */
export interface MetaRecord {
  key: string;
  value: unknown;
}

export type TransferDb = Dexie & {
  uploads: EntityTable<UploadRecord, 'id'>;
  sources: EntityTable<SourceRecord, 'id'>;
  meta: EntityTable<MetaRecord, 'key'>;
};

/** Where IndexedDB comes from: the global one by default, or e.g. fake-indexeddb in a test. */
export interface IndexedDbProvider {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

/** v1 → v2 defaults for one record (exported for the migration test). */
export function migrateRecordV1toV2(record: Partial<UploadRecord>): UploadRecord {
  const r = record as UploadRecord;
  return {
    ...r,
    relativePath: r.relativePath ?? null,
    // v1 held items were held because the file was lost or the session ended; the file tells which.
    holdReason: r.holdReason ?? (r.state === 'held' && !r.file ? 'fileMissing' : null),
    via: r.via ?? (r.state === 'done' ? 'chunks' : null),
    chunkConcurrency: r.chunkConcurrency ?? DEFAULT_CHUNK_CONCURRENCY,
    onConflict: r.onConflict ?? 'fail',
    etag: r.etag ?? null,
  };
}

export function openTransferDb(name: string = TRANSFER_DB_NAME, provider?: IndexedDbProvider): TransferDb {
  const db = new Dexie(name, provider) as TransferDb;
  db.version(1).stores({
    // Primary key first; only the fields we query by are indexed (the File is never indexed).
    uploads: 'id, state, createdAt',
  });
  db.version(2)
    .stores({
      uploads: 'id, state, createdAt, direction',
      downloadPieces: '[itemId+offset], itemId',
    })
    .upgrade((tx) =>
      tx
        .table<UploadRecord, string>('uploads')
        .toCollection()
        .modify((record: UploadRecord, ref: { value: UploadRecord }) => {
          ref.value = migrateRecordV1toV2(record);
        }),
    );
  db.version(3)
    .stores({ downloadPieces: null })
    .upgrade((tx) => tx.table('uploads').where('direction').equals('download').delete());
  db.version(4)
    .stores({ sources: 'id' })
    .upgrade(async (tx) => {
      const uploads = tx.table<UploadRecord, string>('uploads');
      const records = await uploads.toArray();
      await tx.table<SourceRecord, string>('sources').bulkPut(records.flatMap((r) => (r.file ? [{ id: r.id, file: r.file }] : [])));
      await uploads.bulkPut(records.map((r) => ({ ...r, file: null })));
    });
  db.version(5).stores({ meta: 'key' });
  return db;
}
