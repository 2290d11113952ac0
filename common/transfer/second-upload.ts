/**
 * Instant "second upload" with proof of ownership (field notes: Halevi et al., CCS 2011).
 *
 * Knowing a file's hash must not be enough to obtain the file. So:
 * 1. The client sends SecondUploadRequest (common/api/endpoints/pre-upload.ts) without `proof`.
 * 2. The server ALWAYS answers with a challenge ({@link SecondUploadChallenge}) — whether or not the
 *    tenant stores that content — naming a fresh random nonce and a few random byte ranges of a file
 *    of the claimed size. Answering every claim alike is what keeps "stored" and "not stored"
 *    indistinguishable.
 * 3. The client answers with `proof` = HMAC-SHA256(key = nonce bytes, message = the bytes of every
 *    range, concatenated in the order given) ({@link proofMessageLength} says how many bytes).
 * 4. Only if the tenant stores content with that fingerprint and size AND the proof matches does the
 *    server create the file (zero chunk bytes sent): `{status: 'created', file}`. Every other case —
 *    not stored, wrong proof, expired or reused challenge — answers `{status: 'unknown'}`, the very
 *    same answer, and the client goes on with a normal chunked upload.
 * Challenges are single-use and expire after {@link SECOND_UPLOAD_CHALLENGE_TTL_MS}. Dedup is per tenant.
 *
 * Probe (before a streaming session, protocol.ts): the same two steps WITHOUT `fingerprint`, before
 * the client has hashed the file. The proof is checked against the tenant's stored files of that
 * exact size (at most PROBE_MAX_CANDIDATES, newest first). Any match → `{status: 'candidate'}`: the
 * client hashes the whole file and makes the ordinary claim above (zero chunk bytes sent); else
 * `{status: 'unknown'}` and it uploads with hashing pipelined. A probe never creates a file, and a
 * 'candidate' needs the bytes at the random ranges, so it tells nothing to someone without the file.
 */
import type { FileEntry } from '../api/types';

/** How many ranges a challenge names, and how long each is at most. */
export const SECOND_UPLOAD_RANGE_COUNT = 4;
export const SECOND_UPLOAD_RANGE_MAX_BYTES = 64 * 1024;
export const SECOND_UPLOAD_CHALLENGE_TTL_MS = 2 * 60 * 1000;

export interface ByteRange {
  /** Inclusive start. */
  start: number;
  /** Exclusive end. */
  end: number;
}

export interface SecondUploadProof {
  challengeId: string;
  /** Hex HMAC-SHA256. */
  hmac: string;
}

export interface SecondUploadChallenge {
  status: 'challenge';
  challengeId: string;
  /** Hex, 32 random bytes: the HMAC key. */
  nonce: string;
  ranges: ByteRange[];
}

export type SecondUploadResponse =
  | SecondUploadChallenge
  | { status: 'created'; file: FileEntry }
  /** Probes only: the tenant stores a file of this size with these bytes at the challenged ranges. */
  | { status: 'candidate' }
  | { status: 'unknown' };

export function proofMessageLength(ranges: readonly ByteRange[]): number {
  return ranges.reduce((n, r) => n + (r.end - r.start), 0);
}
