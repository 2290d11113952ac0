import type { ERRORS } from '../../common/api/errors';

type ErrorEntry = (typeof ERRORS)[keyof typeof ERRORS];

/**
 * A business error from the shared catalogue; the error handler turns it into the §8 answer shape.
 * `message` may override the catalogue text (e.g. a readable validation message).
 */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra response headers (e.g. Content-Range on 416). */
  readonly headers: Record<string, string>;
  /** Extra fields of the error body (e.g. `conflicts` of CONFLICT_DECISION_REQUIRED). */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    entry: ErrorEntry | { code: string; status: number; message: string },
    message?: string,
    headers: Record<string, string> = {},
    details?: Record<string, unknown>,
  ) {
    super(message ?? entry.message);
    this.name = 'AppError';
    this.code = entry.code;
    this.status = entry.status;
    this.headers = headers;
    this.details = details;
  }
}
