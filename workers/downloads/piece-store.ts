/**
 * Where a download's bytes are kept until the user saves them, so a reload resumes from the last
 * stored byte. An engine dependency: the browser default is OPFS when available, else Dexie Blob
 * pieces; Node supplies a file-backed store.
 *
 * Pieces are appended in order, so the stored bytes are always the contiguous prefix [0, length).
 */
import type { TransferDb } from '../queue/db';

export interface PieceStore {
  /** Bytes stored for item `id` (0 when none). */
  length(id: string): Promise<number>;
  /** Appends `bytes` at `offset`, which must equal length(id). */
  append(id: string, offset: number, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  /** The stored bytes, or null when none. */
  read(id: string): Promise<Blob | null>;
  /** Forgets the item's bytes (restart, cancel, clear). */
  remove(id: string): Promise<void>;
}

/** Pieces as Blobs in IndexedDB (`downloadPieces`): works everywhere IndexedDB does. */
export function createDexiePieceStore(db: TransferDb): PieceStore {
  const pieces = (id: string) => db.downloadPieces.where('[itemId+offset]').between([id, 0], [id, Infinity]);
  return {
    async length(id) {
      const all = await pieces(id).toArray();
      return all.reduce((n, p) => n + p.data.size, 0);
    },
    async append(id, offset, bytes) {
      await db.downloadPieces.put({ itemId: id, offset, data: new Blob([bytes]) });
    },
    async read(id) {
      const all = await pieces(id).toArray();
      return all.length ? new Blob(all.map((p) => p.data)) : null;
    },
    async remove(id) {
      await db.downloadPieces.where('itemId').equals(id).delete();
    },
  };
}

/** The part of the OPFS API we use (StorageManager.getDirectory, createWritable). */
interface OpfsDir {
  getFileHandle(name: string, options?: { create?: boolean }): Promise<{
    getFile(): Promise<File>;
    createWritable(options?: { keepExistingData?: boolean }): Promise<{ seek(p: number): Promise<void>; write(d: BufferSource): Promise<void>; close(): Promise<void> }>;
  }>;
  removeEntry(name: string): Promise<void>;
}

const OPFS_DIR = 'downloads';

/** The OPFS piece store when the browser has it (navigator.storage.getDirectory), else null. */
export async function createOpfsPieceStore(): Promise<PieceStore | null> {
  const storage = (globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<{ getDirectoryHandle(n: string, o: { create: boolean }): Promise<OpfsDir> }> } } }).navigator?.storage;
  if (!storage?.getDirectory) return null;
  let dir: OpfsDir;
  try {
    dir = await (await storage.getDirectory()).getDirectoryHandle(OPFS_DIR, { create: true });
  } catch {
    return null; // private mode and some embedded browsers refuse OPFS
  }
  const fileOf = async (id: string) => {
    try {
      return await (await dir.getFileHandle(id)).getFile();
    } catch {
      return null;
    }
  };
  return {
    async length(id) {
      return (await fileOf(id))?.size ?? 0;
    },
    async append(id, offset, bytes) {
      const handle = await dir.getFileHandle(id, { create: true });
      const writable = await handle.createWritable({ keepExistingData: true });
      await writable.seek(offset);
      await writable.write(bytes);
      await writable.close(); // the bytes count as stored only once close() commits them
    },
    read: fileOf,
    async remove(id) {
      await dir.removeEntry(id).catch(() => undefined);
    },
  };
}

/** OPFS if available, else Dexie; resolved lazily on first use. */
export function createDefaultPieceStore(db: TransferDb): PieceStore {
  let chosen: Promise<PieceStore> | undefined;
  const store = () => (chosen ??= createOpfsPieceStore().then((opfs) => opfs ?? createDexiePieceStore(db)));
  return {
    length: async (id) => (await store()).length(id),
    append: async (id, offset, bytes) => (await store()).append(id, offset, bytes),
    read: async (id) => (await store()).read(id),
    remove: async (id) => (await store()).remove(id),
  };
}
