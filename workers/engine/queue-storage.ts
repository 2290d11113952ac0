/**
 * Storing new items in the queue's IndexedDB, and asking the browser to keep that storage.
 */
import type { TransferDb } from '../queue/db';
import { addUploads } from '../queue/repository';
import type { UploadRecord } from '../queue/types';

export function defaultRequestPersistence(): void {
  const nav = (globalThis as { navigator?: { storage?: { persist?: () => Promise<boolean> } } }).navigator;
  nav?.storage?.persist?.().catch(() => undefined);
}

/**
 * The queue's store would not keep the file itself: some stores refuse Blobs (DataCloneError), and a
 * browser with little room refuses a large one (QuotaExceededError: Chromium counts a stored File
 * against the origin's quota, so a 2 GiB pick in a small profile failed before it reached the list).
 * Dexie may wrap the browser's error; its `inner` is then the one that tells.
 */
export function storeRefusedFile(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'DataCloneError' || error.name === 'QuotaExceededError') return true;
  const inner = (error as { inner?: unknown }).inner;
  const failures = (error as { failures?: unknown[] }).failures;
  return storeRefusedFile(inner) || (Array.isArray(failures) && failures.some(storeRefusedFile));
}

/**
 * Adds new records. When the store will not keep their files, the queue stays persistent anyway
 * without them: the bytes stay in memory for this page, and after a reload each item is held until
 * its file is picked again.
 */
export async function storeNewRecords(db: TransferDb, records: UploadRecord[]): Promise<void> {
  try {
    await addUploads(db, records);
  } catch (error) {
    if (!storeRefusedFile(error)) throw error;
    await addUploads(db, records.map((r) => ({ ...r, file: null })));
  }
}
