/**
 * What the engine does after a failed attempt, decided in one place:
 *  - no HTTP answer, 5xx, 408, 429: transient → retry with backoff (state 'retrying');
 *  - 401 or a session ended by the server: the user must log in again → 'held';
 *  - the file can no longer be read: the user must pick it again → 'held';
 *  - the server forgot the upload session: retry, re-opening it through chunk/exist;
 *  - the server's chunk size changed since the file was hashed: retry, hashing it again;
 *  - a stalled chunk request (no progress for the stall timeout): retry like a network error;
 *  - 429: retry after Retry-After when given (the chunk scheduler also halves concurrency);
 *  - merge refused for a name conflict: 'held' for the user's decision (new version or rename);
 *  - a name the name rule refuses: permanent → 'failed' with holdReason 'badName' (rename, not retry);
 *  - any other 4xx: permanent → 'failed' with the server's message.
 */
import { ApiCallError } from '../../common/api/failure';
import { ERRORS } from '../../common/api/errors';
import { RETRY_MAX_ATTEMPTS, UNREACHABLE_PATIENCE_MS } from '../../common/transfer/constants';
import { SourceReadError } from '../hash/sha256';
import { NetworkError, RateLimitedError } from './api-client';
import { StallError } from './transport';
import { MESSAGES } from './messages';
import { DROPPED_SESSION } from './source-stamp';
import type { FailReason } from '../../common/transfer/engine-api';
import type { ItemHoldReason, UploadPatch } from '../queue/types';

export type FailureDecision =
  /** `message` is shown while waiting, `finalMessage` when the attempts run out; `patch` is applied with the retry. */
  | { action: 'retry'; message: string; finalMessage: string; patch?: UploadPatch; retryAfterMs?: number; network?: boolean }
  | { action: 'hold'; message: string; holdReason?: ItemHoldReason }
  | { action: 'fail'; message: string; holdReason?: FailReason };

/** Raised by the runner for conditions it detects itself; `decision` says how to react. */
export class UploadError extends Error {
  constructor(readonly decision: FailureDecision) {
    super(decision.message);
    this.name = 'UploadError';
  }
}

/** The server's refusals of a name as such (common/validation/names.ts checkFileName): permanent for that name. */
const NAME_RULE_CODES = new Set<string>([ERRORS.NAME_EMPTY, ERRORS.NAME_INVALID_CHARS, ERRORS.NAME_TOO_LONG, ERRORS.NAME_INVISIBLE_CHARS, ERRORS.NAME_TRAILING_DOT, ERRORS.NAME_RESERVED].map((e) => e.code));

/** HTTP statuses outside 5xx that still mean "try again later". */
const TRANSIENT_STATUSES = new Set([408, 429]);

export function decideOnFailure(error: unknown): FailureDecision {
  if (error instanceof UploadError) return error.decision;
  if (error instanceof NetworkError) {
    return { action: 'retry', message: MESSAGES.networkRetrying, finalMessage: MESSAGES.networkGaveUp, network: true };
  }
  if (error instanceof StallError) {
    return { action: 'retry', message: MESSAGES.stalledRetrying, finalMessage: MESSAGES.networkGaveUp, network: true };
  }
  if (error instanceof RateLimitedError) {
    return {
      action: 'retry',
      message: MESSAGES.serverBusy,
      finalMessage: MESSAGES.serverGaveUp,
      ...(error.retryAfterMs !== null ? { retryAfterMs: error.retryAfterMs } : {}),
    };
  }
  if (error instanceof SourceReadError) return { action: 'hold', message: MESSAGES.fileUnreadable, holdReason: 'fileMissing' };
  if (error instanceof ApiCallError) return decideOnApiError(error);
  // A bug or an unexpected answer shape: retrying will not help, so say so instead of looping.
  return { action: 'fail', message: MESSAGES.uploadFailed };
}

function decideOnApiError(error: ApiCallError): FailureDecision {
  const { failure, status } = error;
  switch (failure.kind) {
    case 'unauthorized':
      return { action: 'hold', message: MESSAGES.sessionExpired, holdReason: 'unauthorized' };
    case 'sessionTerminated':
      return { action: 'hold', message: failure.errorMessage || MESSAGES.sessionExpired, holdReason: 'unauthorized' };
    case 'serverError':
    case 'downloadExceeded':
      return { action: 'retry', message: MESSAGES.serverRetrying, finalMessage: serverText(error) };
    case 'badRequest':
      if (failure.errorCode === ERRORS.UPLOAD_NOT_FOUND.code) {
        // The session expired on the server: start a new one; chunk/exist reports what survived.
        return {
          action: 'retry',
          message: MESSAGES.uploadExpired,
          finalMessage: failure.errorMessage || MESSAGES.uploadFailed,
          patch: { uploadId: null, chunksDone: [], bytesDone: 0 },
        };
      }
      if (failure.errorCode === ERRORS.CHUNK_SIZE_CHANGED.code) {
        // The server's chunk size changed since the file was hashed: hash it again at the new size.
        return { action: 'retry', message: MESSAGES.chunkSizeChanged, finalMessage: failure.errorMessage || MESSAGES.uploadFailed, patch: DROPPED_SESSION };
      }
      // The session's 手势密码 lock is up: held like a signed-out session, resumed by the user once unlocked.
      if (failure.errorCode === ERRORS.GESTURE_LOCKED.code) return { action: 'hold', message: failure.errorMessage || ERRORS.GESTURE_LOCKED.message, holdReason: 'unauthorized' };
      if (failure.errorCode === ERRORS.NAME_CONFLICT.code) return { action: 'hold', message: MESSAGES.held.exists, holdReason: 'exists' };
      // The server enforces the pre-upload checks again; the item ends where the check would have put it.
      if (failure.errorCode === ERRORS.FILE_LOCKED.code) return { action: 'hold', message: MESSAGES.held.locked, holdReason: 'locked' };
      if (failure.errorCode === ERRORS.FILE_TYPE_BLOCKED.code) return { action: 'fail', message: MESSAGES.blockedType, holdReason: 'blockedType' };
      // The same intercepted list, saying it was the content: the name alone looked allowed.
      if (failure.errorCode === ERRORS.FILE_CONTENT_BLOCKED.code) return { action: 'fail', message: MESSAGES.blockedContent, holdReason: 'blockedType' };
      // The name rule: no attempt will pass it, another name will (the user renames, nothing is re-sent).
      if (NAME_RULE_CODES.has(failure.errorCode)) return { action: 'fail', message: failure.errorMessage || MESSAGES.badName, holdReason: 'badName' };
      return { action: 'fail', message: failure.errorMessage || MESSAGES.httpStatus(status) };
    case 'ignored':
      if (status >= 500 || TRANSIENT_STATUSES.has(status)) {
        return { action: 'retry', message: MESSAGES.serverRetrying, finalMessage: MESSAGES.serverGaveUp };
      }
      return { action: 'fail', message: messageOfBody(error.body) || MESSAGES.httpStatus(status) };
  }
}

function serverText(error: ApiCallError): string {
  return error.failure.kind === 'serverError' && error.failure.message ? error.failure.message : MESSAGES.serverGaveUp;
}

/** The server's errorMessage, when a status the classifier ignores still came with one. */
function messageOfBody(body: unknown): string {
  if (body && typeof body === 'object' && 'errorMessage' in body && typeof body.errorMessage === 'string') return body.errorMessage;
  return '';
}

/**
 * May a failed item try again? `attempts` counts this run of failures without progress (this one
 * included), which began at `failingSince`. A server that cannot be reached is waited for by time
 * (UNREACHABLE_PATIENCE_MS), not by attempts: a restart may take longer than the attempts' backoffs.
 */
export function mayRetry(decision: FailureDecision, attempts: number, failingSince: number, now: number): boolean {
  if (decision.action !== 'retry') return false;
  if (attempts < RETRY_MAX_ATTEMPTS) return true;
  return decision.network === true && now - failingSince < UNREACHABLE_PATIENCE_MS;
}
