/**
 * The chunked upload protocol (spec §7 names chunk/exist and second/upload; the rest is ours).
 *
 * 1. `GET  uploadConfig` → {@link UploadConfig}: the chunk size to hash with.
 * 2. The client digests every chunk (chunk-digest.ts: SHA-256 over the SHA-256 of its 512 KiB leaves,
 *    hex) and computes the file fingerprint =
 *    SHA-256 over the concatenated raw 32-byte chunk digests ({@link fingerprintOfChunkDigests}).
 * 3. `POST chunkExist` ChunkExistRequest (common/api/endpoints/uploads.ts) → {@link ChunkExistResponse}: opens (or finds) the upload
 *    session for this user + fingerprint + size and lists the chunk indexes the server already holds
 *    (`existingChunks`) and, optionally, the chunks it holds a prefix of (`partialChunks`).
 *    In an announced session, a chunk whose digest is the digest of that many zero bytes is stored by
 *    the server itself (a hole, common/files/sparse.ts) and listed in `existingChunks`: sparse files'
 *    zero runs are never sent (a short last chunk is checked only up to 1 MiB).
 * 4. `POST chunkUpload?uploadId=&index=[&offset=]` raw body, header `X-Chunk-Sha256` (optional in a
 *    streaming session, below) → {@link ChunkUploadResponse}.
 *    The body is the chunk's bytes from `offset` (default 0) to its end; the header is always the digest
 *    of the WHOLE chunk. The server hashes while streaming and refuses a chunk whose digest or length
 *    differs. Re-sending a stored chunk is harmless (idempotent).
 * 5. `POST chunkMerge` ChunkMergeRequest → FileEntry, once every chunk is stored.
 *
 * Partial chunks (resume inside a chunk, so a reload or a cut connection re-sends at most one chunk):
 * - the server streams a chunk body into `uploads/<uploadId>/<index>.part`. When the body ends early
 *   (client aborted, connection cut) it keeps (fsyncs) what arrived and does not record the chunk;
 *   chunk/exist then lists `{index, bytes}` in `partialChunks` (0 < bytes < chunk length).
 * - the client sends only the rest: `offset=bytes`, body = chunk bytes [bytes, end). The server
 *   truncates the partial to `offset`, hashes its first `offset` bytes, appends and hashes the body;
 *   complete and matching (length, header digest, announced digest) → the chunk is stored.
 * - `offset` > bytes held (or no partial at all) → 400 `CHUNK_OFFSET_MISMATCH`: send the chunk again
 *   from offset 0. A digest or length mismatch discards the partial: the next attempt starts at 0.
 * - `offset` 0 always starts a fresh partial. Writers of one (upload, chunk) are serialized.
 * - `partialChunks` is optional: a client treats its absence as "no partials" and sends `offset` only
 *   for indexes the server listed, so it works with a server that does not keep partials.
 *
 * Streaming sessions (pipelined hashing, for files of at least PIPELINE_MIN_BYTES): hashing a large
 * file first and uploading after wastes the hashing time, so the client may open the session before
 * it knows the digests:
 * - step 3 without `fingerprint` and `chunkDigests` (and with the `uploadId` of an earlier answer to
 *   continue that session; an unknown or expired one gets a new session);
 * - step 4: the header `X-Chunk-Sha256` MAY be omitted. Given, it is checked against the body as usual
 *   (CHUNK_DIGEST_MISMATCH); omitted, the server records the digest it computes while streaming the
 *   body to disk (it hashes every chunk anyway). A partial continued with `offset` is hashed whole
 *   (held prefix + body) either way;
 * - step 5 MAY carry `chunkDigests` and `fingerprint` (both or neither). Given: the server checks them
 *   against each other and against every recorded chunk (FINGERPRINT_MISMATCH otherwise: the client
 *   starts a new session). Omitted: the server takes the recorded digests, in order, and computes the
 *   fingerprint from them exactly as fingerprintOfChunkDigests does, and stores the blob with it, so
 *   later second uploads and dedup of this content work as for any upload.
 * A client that sends neither headers nor digests (the browser engine: reading every chunk twice, once
 * to hash and once for the request, costs more CPU than the upload itself) trusts the transport for the
 * bytes' integrity and must itself make sure a resumed session still belongs to the same file bytes
 * (it keys the session to the file's size and lastModified; workers/engine/upload-runner.ts).
 * Before opening one, the client probes for content the tenant already stores (second-upload.ts,
 * "probe"), so a duplicate still sends zero chunk bytes.
 * Announced (non-streaming) sessions are unchanged: the header is required on every chunk.
 *
 * Range uploads (many consecutive chunks in one request; streaming sessions without digests only):
 * - step 4 with `through=j` (j >= index): `POST chunkUpload?uploadId=&index=i&through=j[&offset=]`, body =
 *   the bytes of chunks i..j (chunk i from `offset`), no `X-Chunk-Sha256` (one header cannot carry a
 *   digest per chunk), `Content-Length` required and equal to those bytes' count, else 400
 *   `CHUNK_SIZE_MISMATCH` before anything is read. The browser sends a new file's whole File this way
 *   (i = 0, j = last): Chromium's network service then reads the file itself, where a `File.slice`
 *   body is relayed through the browser process (tests/bench/PROFILE-browser-upload.md).
 * - the server cuts the body at the chunk boundaries as it arrives and, for each chunk, does exactly
 *   what a single chunk upload does (partial file, hash, fsync, install, record); a chunk already
 *   stored is read and dropped. A body cut mid-way leaves every chunk before the cut recorded and the
 *   one it cut as a partial: chunk/exist lists them, and the client goes on chunk by chunk from there.
 * - answer {@link ChunkRangeUploadResponse}: the chunks recorded (all of i..j); any failure answers the
 *   error of the chunk that failed (the chunks before it stay recorded).
 * - an announced session, or a header given: 400 `VALIDATION`; j out of range: `CHUNK_INDEX_INVALID`.
 *   Without `through` the request is the single-chunk upload above, unchanged.
 *
 * Finished uploads (an answer lost is not an upload lost): every request that may create the file —
 * chunkExist, chunkMerge, second upload, the small-file batch — takes an optional `clientKey`, the
 * client's own id for the item (CLIENT_KEY_PATTERN, unique per user). The server records the key with
 * the file it creates, in the same transaction, and keeps it as long as an upload session. A later
 * request with that key (a reload while the merge ran, a connection cut before the answer) creates
 * nothing: chunkExist answers `finished` with the file's id, merge and second upload answer the file,
 * the batch lists the item as created. Without a key, requests behave as before.
 */

export interface UploadConfig {
  chunkSize: number;
  /** Largest file the server accepts, bytes. */
  maxFileSize: number;
}

export interface ChunkExistResponse {
  uploadId: string;
  chunkSize: number;
  chunkCount: number;
  /** Indexes (0-based) of chunks the server already stores for this upload. */
  existingChunks: number[];
  /**
   * Chunks (not in `existingChunks`) of which the server holds the first `bytes` bytes,
   * 0 < bytes < chunk length: send only the rest, with `offset=bytes`. Absent = none.
   */
  partialChunks?: PartialChunk[];
  /**
   * Present when `clientKey` already created its file (see "Finished uploads"): the item is done,
   * nothing is to be sent (`existingChunks` lists every chunk).
   */
  finished?: { fileId: string };
}

export interface PartialChunk {
  index: number;
  bytes: number;
}

/** The answer to a range upload: every chunk of the range, recorded, in order. */
export interface ChunkRangeUploadResponse {
  chunks: ChunkUploadResponse[];
}

export interface ChunkUploadResponse {
  index: number;
  size: number;
}

/**
 * What merge does when the folder already holds a file of that name (see fileVersion/check):
 * - 'fail': refuse with NAME_CONFLICT (the upload is kept, so the client can merge again);
 * - 'newVersion': the existing file gets this content as its new current version, the old one is kept
 *   in its history;
 * - 'rename': the server picks a free name 'name (1).ext', 'name (2).ext', ...
 */
export type ConflictPolicy = 'fail' | 'newVersion' | 'rename';

export interface IfMatch {
  fileId: string;
  /** null: any content (only the id must match). */
  fingerprint: string | null;
}

/** What a `clientKey` may look like: the engine's item ids (workers/engine/ids.ts) fit. */
export const CLIENT_KEY_PATTERN = '^[A-Za-z0-9_-]{1,64}$';

/** Number of chunks of a file; an empty file has one empty chunk so every file has a fingerprint. */
export function chunkCount(size: number, chunkSize: number): number {
  return size === 0 ? 1 : Math.ceil(size / chunkSize);
}

/** Byte range [start, end) of chunk `index`. */
export function chunkRange(index: number, size: number, chunkSize: number): { start: number; end: number } {
  const start = index * chunkSize;
  return { start, end: Math.min(size, start + chunkSize) };
}

export function hexToBytes(hex: string): Uint8Array {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error('invalid hex string');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += bytes[i]!.toString(16).padStart(2, '0');
  return s;
}

/** The bytes whose SHA-256 is the file fingerprint: the raw chunk digests, concatenated. */
export function fingerprintInput(chunkDigestsHex: readonly string[]): Uint8Array {
  const out = new Uint8Array(chunkDigestsHex.length * 32);
  chunkDigestsHex.forEach((h, i) => out.set(hexToBytes(h), i * 32));
  return out;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
