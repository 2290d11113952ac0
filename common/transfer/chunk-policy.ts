/**
 * The chunk policy: how large the chunks of an upload are, within which bounds, and which size a
 * given file is cut at. The server (its CHUNK_SIZE setting, the routes' limits), the browser engine,
 * the Node client and desktop sync all take these from here.
 *
 * The chunk size is more than a transport setting: a file's fingerprint is SHA-256 over its chunk
 * digests (protocol.ts), so it defines every fingerprint, and fingerprints are how a second upload
 * (秒传) and dedup find content already stored. A server started with another CHUNK_SIZE therefore
 * fingerprints again, in the background, every stored blob whose fingerprint depends on the size
 * (each blob records the size its fingerprint was computed with: server/services/fingerprint-upgrade.ts).
 * Clients hash every file at the size the server announces now ({@link chunkSizeForFile}), and drop
 * digests computed earlier at another size ({@link digestsStillValid}).
 */

/**
 * 16 MiB: per-request costs (the browser's XHR and blob reads, the server's statements, writes and
 * fsync per chunk) are paid a quarter as often as with 4 MiB, and it stays well under the 100 MB
 * body limits of common proxies. Measured in Chromium (bench browser-upload, 512 MiB, this 2-core
 * machine): 4 MiB 67 MB/s, 16 MiB 85 MB/s, 32 MiB 91 MB/s; the renderer held +57, +108, +203 MB.
 */
export const DEFAULT_CHUNK_SIZE = 16 * 1024 * 1024;
/**
 * Smallest and largest chunk size a server may use and announce. Below 256 KiB the per-chunk costs
 * dominate; above 64 MiB a chunk request outgrows proxies' body limits and the memory a browser tab
 * holds per request in flight.
 */
export const MIN_CHUNK_SIZE = 256 * 1024;
export const MAX_CHUNK_SIZE = 64 * 1024 * 1024;

/** Room beyond one chunk a chunk request's body limit leaves (a range upload declares its own length). */
const BODY_SLACK_BYTES = 64 * 1024;

/** Why `value` cannot be a chunk size (for the operator who set it), or null when it can. */
export function chunkSizeProblem(value: number): string | null {
  if (!Number.isSafeInteger(value) || value < MIN_CHUNK_SIZE || value > MAX_CHUNK_SIZE) {
    return `a chunk size is a whole number of bytes from ${MIN_CHUNK_SIZE} (256 KiB) to ${MAX_CHUNK_SIZE} (64 MiB), got ${value}`;
  }
  return null;
}

export function isChunkSize(value: number): boolean {
  return chunkSizeProblem(value) === null;
}

/**
 * The chunk size a client cuts and fingerprints a file at: the one the server announces (UploadConfig),
 * which chunk/exist requires. An announcement outside the bounds cannot come from our server (it
 * refuses to start with one); the default is then the best guess.
 */
export function chunkSizeForFile(announced: number): number {
  return isChunkSize(announced) ? announced : DEFAULT_CHUNK_SIZE;
}

/**
 * Whether digests a client computed earlier at `hashedAt` (a queued item, a resumed upload, a scan's
 * cache) still describe the file for a server announcing `announced` now: only at the same size — the
 * server refuses chunk/exist at any other, and the fingerprint would not find stored content.
 */
export function digestsStillValid(hashedAt: number, announced: number): boolean {
  return hashedAt === chunkSizeForFile(announced);
}

/**
 * Whether content of `size` bytes has the same fingerprint under both chunk sizes: when the sizes are
 * equal, or when it fits in one chunk under both (one chunk's digest does not depend on the size).
 */
export function fingerprintUnaffected(size: number, chunkSizeA: number, chunkSizeB: number): boolean {
  return chunkSizeA === chunkSizeB || size <= Math.min(chunkSizeA, chunkSizeB);
}

/** The request body limit of a chunk upload at `chunkSize`. */
export function chunkBodyLimit(chunkSize: number): number {
  return chunkSize + BODY_SLACK_BYTES;
}
