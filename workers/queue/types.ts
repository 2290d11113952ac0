/** The persisted shape of a transfer item: everything needed to resume it after a reload. */
import type { UploadTarget } from '../../common/transfer/engine-api';
import type { TransferState } from '../../common/transfer/states';

export interface UploadRecord {
  id: string;
  direction: 'upload';
  name: string;
  size: number;
  lastModified: number;
  /** MIME type as the browser reported it ('' when unknown). */
  type: string;
  /**
   * The bytes. Chromium keeps a File in IndexedDB as a reference to the disk file, so it stays readable
   * after a reload unless the file changed; structured cloning under Node turns it into a Blob. null
   * when the store refused it: the item is then held until the user picks the file again.
   */
  file: Blob | null;
  target: UploadTarget;
  state: TransferState;
  /** Bytes the server confirmed (sum of the chunks in `chunksDone`). */
  bytesDone: number;
  /** Chunk size the digests were computed with; 0 until the server announced it. */
  chunkSize: number;
  /** Hex SHA-256 per chunk, null until hashing finished. */
  chunkDigests: string[] | null;
  /** Hex SHA-256 over the chunk digests, null until hashing finished. */
  fingerprint: string | null;
  /** Server upload session, null until chunk/exist answered. */
  uploadId: string | null;
  /** The chunk map: indexes the server confirmed, ascending. */
  chunksDone: number[];
  /** Consecutive failed attempts; reset by progress and by a manual retry. */
  attempts: number;
  /** Chinese, user-facing. */
  lastError: string | null;
  fileId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Fields a caller may change; `id`, `direction` and `createdAt` never change. */
export type UploadPatch = Partial<Omit<UploadRecord, 'id' | 'direction' | 'createdAt' | 'updatedAt'>>;
