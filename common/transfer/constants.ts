/**
 * Transfer constants, named and documented in one place (the server may announce other values
 * through `UploadConfig`; these are the defaults both sides fall back to). The chunk size, its bounds
 * and which size a file is cut at: chunk-policy.ts.
 */

/** Chunk requests in flight per file. Seafile and simple-uploader use 3 too. */
export const DEFAULT_CHUNK_CONCURRENCY = 3;
/** Files transferred at once. */
export const DEFAULT_FILE_CONCURRENCY = 2;

/**
 * Files at least this large are hashed while they upload (a streaming session, protocol.ts) after a
 * size-keyed second-upload probe. Smaller ones are hashed first: that takes under 0.1 s, and the
 * probe's extra round trips would cost more than they save.
 */
export const PIPELINE_MIN_BYTES = 64 * 1024 * 1024;

/** At most this many stored files of the probed size are checked against a probe's proof. */
export const PROBE_MAX_CANDIDATES = 8;

/** Retry schedule for network errors, stalls and 5xx: exponential with full jitter. */
export const RETRY_BASE_DELAY_MS = 500;
export const RETRY_MAX_DELAY_MS = 30_000;
export const RETRY_MAX_ATTEMPTS = 8;
/**
 * When the server cannot be reached at all (no HTTP answer, a stalled request), attempts stop counting:
 * the item keeps retrying (at most RETRY_MAX_DELAY_MS apart) for this long since its last progress.
 * A server restart or a failover can outlast the ~30-60 s of RETRY_MAX_ATTEMPTS backoffs; a user who
 * left a large upload running expects it to carry on by itself, as it does after being offline.
 */
export const UNREACHABLE_PATIENCE_MS = 10 * 60_000;

/** A chunk request with no progress for this long is aborted and retried (Uppy uses 30 s). */
export const STALL_TIMEOUT_MS = 30_000;
/**
 * Once a chunk request's whole body has gone, its answer may take this many stall timeouts (60 s with
 * the default) before the request is aborted and retried: bytes still buffered on the way, and the
 * server's digest and fsync of the chunk, show no progress (transport.ts, withStallDetection).
 */
export const ANSWER_TIMEOUT_STALLS = 2;

/** Smoothing of speed/ETA: exponential moving average with this half-life (as Uppy). */
export const SPEED_HALF_LIFE_MS = 2_000;

/** Partial uploads untouched for this long are removed by the server. */
export const UPLOAD_EXPIRY_MS = 7 * 24 * 3600 * 1000;

/** Header carrying the hex SHA-256 of a chunk body. */
export const HEADER_CHUNK_SHA256 = 'X-Chunk-Sha256';
