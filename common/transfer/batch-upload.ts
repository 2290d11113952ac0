/**
 * Small files in batches (ours, not in the spec). A folder of thousands of small files spent most of
 * its time in per-file round trips (upload config, second upload, chunk/exist, chunk, merge: five
 * requests and several commits for 4 KiB). Files of at most BATCH_FILE_MAX_BYTES go up many at a
 * time instead, in one request committed in one transaction, each file still checked, deduplicated
 * and refusable on its own (Nextcloud's bulk upload does the same for its desktop client).
 *
 * `POST batchUpload`, `Content-Type: application/octet-stream`, body:
 *   [4 bytes: manifest length N, unsigned big-endian][N bytes: BatchUploadManifest as UTF-8 JSON]
 *   [the files' bytes, one after another, in manifest order, each exactly `size` bytes]
 * → `{data: BatchUploadResponse}`: one result per manifest item, in manifest order.
 *
 * Per item the server checks what a merge checks — the name, the target folder and the caller's
 * right to write there, blocked types by name and by content, the quota, a name clash under the
 * item's `onConflict` — and the bytes against the item's `digest`. A refused item gets its own
 * coded error and costs the others nothing. Content the tenant already stores is not stored twice
 * (the bytes were sent, so holding them is proven). The items created are committed together.
 *
 * `clientKey` is the client's id for the item, as in protocol.ts ("Finished uploads"): an item whose
 * key already created a file (a repeat of a batch whose answer was lost) is answered `created` with
 * that file, and its bytes are read and dropped.
 *
 * Header `X-Batch-Manifest-Sha256` (HEADER_BATCH_MANIFEST_SHA256, optional, our client always sends
 * it): hex SHA-256 of the first 4 + N bytes (the length and the manifest). Bytes damaged on the way
 * there answer UPL-4002 (CHUNK_DIGEST_MISMATCH) for the whole request, which the client sends again;
 * each file's own bytes are checked against its item's `digest` (refused alone, sent again).
 *
 * Whole-request refusals (400): a malformed manifest or one over the limits (REQ-2001), a damaged
 * manifest (UPL-4002), a body shorter or longer than the manifest announces (UPL-4003).
 */
import type { FileCategory, FileEntry } from '../api/types';
import type { ConflictPolicy, IfMatch } from './protocol';

export const HEADER_BATCH_MANIFEST_SHA256 = 'X-Batch-Manifest-Sha256';

/** Files of at most this size go up in batches; larger ones take the chunked protocol. */
export const BATCH_FILE_MAX_BYTES = 1024 * 1024;
/** Items in one batch request. */
export const BATCH_MAX_FILES = 200;
/** Bytes of files in one batch request (the manifest comes on top). */
export const BATCH_MAX_BYTES = 16 * 1024 * 1024;
/** Longest manifest the server reads. */
export const BATCH_MANIFEST_MAX_BYTES = 1024 * 1024;

export interface BatchUploadItem {
  /** The client's id for the item (CLIENT_KEY_PATTERN), unique within the batch. */
  clientKey: string;
  name: string;
  parentId: string | null;
  category: FileCategory;
  size: number;
  /** Hex digest of the file's bytes as one chunk (chunk-digest.ts: SHA-256 over its 512 KiB leaves' SHA-256). */
  digest: string;
  /** Default 'fail'. */
  onConflict?: ConflictPolicy;
  /**
   * With 'newVersion': replace only that file at that content, as a merge's ifMatch (protocol.ts);
   * otherwise the item is refused SYNC_CHANGED. The desktop sync sends its small edits this way.
   */
  ifMatch?: IfMatch;
}

export interface BatchUploadManifest {
  items: BatchUploadItem[];
}

export type BatchUploadResult =
  | { clientKey: string; status: 'created'; file: FileEntry }
  /** The item was refused: `errorCode` and `errorMessage` as the same refusal answers elsewhere (§8). */
  | { clientKey: string; status: 'refused'; errorCode: string; errorMessage: string };

export interface BatchUploadResponse {
  results: BatchUploadResult[];
}
