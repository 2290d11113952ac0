/** The persisted shape of a transfer item: everything needed to resume it after a reload. */
import type { HoldReason } from '../../common/transfer/checks';
import type { TransferItemView, UploadTarget } from '../../common/transfer/engine-api';
import type { ConflictPolicy, IfMatch } from '../../common/transfer/protocol';
import type { TransferState } from '../../common/transfer/states';

export type ItemHoldReason = NonNullable<TransferItemView['holdReason']>;
export type { HoldReason };

export interface UploadRecord {
  id: string;
  /** Schema v2 kept downloads in the same table; since v3 every item is an upload. */
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
  /** Bytes the server confirmed. */
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
  /** The created file, once done (or the file a new version is for). */
  fileId: string | null;
  createdAt: number;
  updatedAt: number;

  // ---- schema v2 ----
  /** Path inside a picked folder ('photos/2024/a.jpg'), or null. */
  relativePath: string | null;
  /** Why the item is held (or 'blockedType' for an intercepted file), else null. */
  holdReason: ItemHoldReason | null;
  /** How the upload finished: 'instant' = second upload, no chunk bytes sent; null until done. */
  via: 'chunks' | 'instant' | null;
  /** Chunk requests in flight for this item; lowered by 429 answers, raised again after successes. */
  chunkConcurrency: number;
  /** What merge / second upload do on a name conflict: set by the user's decision on a held item. */
  onConflict: ConflictPolicy;
  /** Schema v2 field of the engine's former downloads; always null. */
  etag: string | null;
  /**
   * `uploadId` is a streaming session (hashing pipelined with the upload, digests announced at merge;
   * common/transfer/protocol.ts). Not indexed, so no schema version: a record without it is false.
   */
  streamingSession?: boolean;
  /**
   * The streaming session's chunks go without digests and its merge without a fingerprint: the server's
   * recorded digests make it (protocol.ts, "Streaming sessions"). Such a session belongs to the bytes
   * of the file as `size` + `lastModified` describe it (upload-runner.ts, sourceChanged). Not indexed.
   */
  serverDigests?: boolean;
  /**
   * With onConflict 'newVersion': replace only that file at that content (the desktop sync's guard,
   * common/transfer/protocol.ts IfMatch). Not indexed: absent on the browser's items.
   */
  ifMatch?: IfMatch | null;
  /**
   * The pre-upload checks (spec §4) could not be asked when the item was queued (offline): it is not
   * started until they have answered (engine.ts, pre-send checks). Not indexed; absent = checked.
   */
  checksPending?: boolean;
  /** 上传新版本: the id of the file this upload becomes the next version of. Not indexed. */
  versionOf?: string;
  /**
   * EnqueueOptions.purpose, kept with the item so a retry or a reload sends it again (chunk/exist, chunk
   * uploads, merge). Not indexed: absent = an ordinary upload.
   */
  purpose?: 'clientInstaller';
}

/** Fields a caller may change; `id`, `direction` and `createdAt` never change. */
export type UploadPatch = Partial<Omit<UploadRecord, 'id' | 'direction' | 'createdAt' | 'updatedAt'>>;
