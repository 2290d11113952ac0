import { DOWNLOAD_EXCEEDED_CODE, SESSION_TERMINATED_CODE } from './errors';

/**
 * What a failed call means to a client, spec §8, decided in one place for the UI and the workers.
 * The UI turns each kind into its visible reaction; the transfer engine uses it to decide retries.
 */
export type ApiFailure =
  | { kind: 'sessionTerminated'; errorMessage: string } // 400 + 400sec-core-301: '登出' box then /login
  | { kind: 'badRequest'; errorCode: string; errorMessage: string } // other 400: 3 s error toast
  | { kind: 'unauthorized' } // 401: go to /login (carry redirect from a share link)
  | { kind: 'downloadExceeded' } // 500 + DEP10213: /downloadExceeded
  | { kind: 'serverError'; errorCode: string; message: string } // other 500: 3 s error toast
  | { kind: 'ignored'; status: number }; // every other status: no default reaction

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function classifyFailure(status: number, body: unknown): ApiFailure {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const errorCode = str(b.errorCode);
  if (status === 400) {
    if (errorCode === SESSION_TERMINATED_CODE) return { kind: 'sessionTerminated', errorMessage: str(b.errorMessage) };
    return { kind: 'badRequest', errorCode, errorMessage: str(b.errorMessage) };
  }
  if (status === 401) return { kind: 'unauthorized' };
  if (status === 500) {
    if (errorCode === DOWNLOAD_EXCEEDED_CODE) return { kind: 'downloadExceeded' };
    return { kind: 'serverError', errorCode, message: str(b.message) || str(b.errorMessage) };
  }
  return { kind: 'ignored', status };
}

/** Error thrown by API clients for a non-2xx answer; carries the classified failure. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly failure: ApiFailure,
    readonly body: unknown,
  ) {
    super(
      failure.kind === 'badRequest'
        ? failure.errorMessage || failure.errorCode
        : failure.kind === 'serverError'
          ? failure.message || failure.errorCode
          : `HTTP ${status} (${failure.kind})`,
    );
    this.name = 'ApiCallError';
  }

  get errorCode(): string {
    const f = this.failure;
    return f.kind === 'badRequest' || f.kind === 'serverError' ? f.errorCode : '';
  }
}
