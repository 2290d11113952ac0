/**
 * The IndexedDB database holding the transfer queue, so uploads survive a reload or a crash.
 *
 * Schema changes: never edit a released `version(n)` block. Add `version(n + 1).stores(...)` with only
 * the changed tables and, when existing rows must be rewritten, an `.upgrade(tx => ...)`. Dexie runs
 * every missing step in order on open, so a browser still on version 1 migrates straight to the newest.
 */
import Dexie, { type EntityTable } from 'dexie';
import type { UploadRecord } from './types';

export const TRANSFER_DB_NAME = 'transfer-engine';

export type TransferDb = Dexie & { uploads: EntityTable<UploadRecord, 'id'> };

/** Where IndexedDB comes from: the global one by default, or e.g. fake-indexeddb in a test. */
export interface IndexedDbProvider {
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
}

export function openTransferDb(name: string = TRANSFER_DB_NAME, provider?: IndexedDbProvider): TransferDb {
  const db = new Dexie(name, provider) as TransferDb;
  db.version(1).stores({
    // Primary key first; only the fields we query by are indexed (the File is never indexed).
    uploads: 'id, state, createdAt',
  });
  return db;
}
