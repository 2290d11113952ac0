/**
 * Response envelopes. Spec §7 says response fields are "mostly in data"; §8 fixes the error shapes.
 *
 * - Success (HTTP 200): `{ data: T }`.
 * - HTTP 400: `{ errorCode, errorMessage }` (business errors, bad input).
 * - HTTP 401: `{ errorCode, errorMessage }` (no or expired session). The client only looks at the status.
 * - HTTP 500: `{ errorCode, message }` (server-side failures, and DEP10213 "download limit exceeded").
 */
export interface ApiOk<T> {
  data: T;
}

export interface ApiError400 {
  errorCode: string;
  errorMessage: string;
  /** Only with CONFLICT_DECISION_REQUIRED: the clashes to decide on (NameConflict[] in types.ts). */
  conflicts?: unknown[];
}

export type ApiError401 = ApiError400;

export interface ApiError500 {
  errorCode: string;
  message: string;
}
