import { ERRORS } from '../../common/api/errors';
import { AppError } from '../http/app-error';
import { DavError } from './context';
import { errorBody } from './xml';

/** What a refusal becomes on the wire: status, a readable body, extra headers, and its code for the log. */
export interface DavRefusal {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
  /** The product's error code (action log), or `DAV-<status>`. */
  code: string;
}

/**
 * The product's coded errors in WebDAV's statuses (the web API answers most of them 400 with a
 * code, spec §8; a WebDAV client acts on the status). The body keeps the code and the Chinese text.
 */
const STATUS_OF: Readonly<Record<string, number>> = {
  [ERRORS.NOT_FOUND.code]: 404,
  [ERRORS.FORBIDDEN.code]: 403,
  [ERRORS.SHARE_EDIT_LIMITED.code]: 403,
  [ERRORS.SHARE_PREVIEW_ONLY.code]: 403,
  [ERRORS.PUBLIC_DOWNLOAD_OFF.code]: 403,
  [ERRORS.DOWNLOAD_CONFIRM_REQUIRED.code]: 403,
  [ERRORS.FILE_TYPE_BLOCKED.code]: 403,
  [ERRORS.FILE_CONTENT_BLOCKED.code]: 403,
  [ERRORS.INSTALLER_UPLOAD_FORBIDDEN.code]: 403,
  [ERRORS.LOCKED_BY_OTHER.code]: 423,
  [ERRORS.QUOTA_EXCEEDED.code]: 507,
  [ERRORS.NAME_CONFLICT.code]: 409,
  [ERRORS.MOVE_INTO_SELF.code]: 403,
  [ERRORS.CONFLICT_DECISION_REQUIRED.code]: 412,
  [ERRORS.PARENT_NOT_FOLDER.code]: 409,
  [ERRORS.RANGE_NOT_SATISFIABLE.code]: 416,
  [ERRORS.PAYLOAD_TOO_LARGE.code]: 413,
};

export function davStatusOf(err: AppError): number {
  return STATUS_OF[err.code] ?? (err.status >= 500 ? 500 : err.status === 404 ? 404 : err.code.startsWith('AUTH-') ? 403 : 400);
}

/** The refusal for any error a handler threw; null for an unexpected one (the server's fault: logged, 500). */
export function refusalOf(err: unknown): DavRefusal | null {
  if (err instanceof DavError) {
    return {
      status: err.status,
      contentType: err.condition ? 'application/xml; charset=utf-8' : 'text/plain; charset=utf-8',
      body: err.condition ? errorBody(err.condition, err.message) : `${err.message}\n`,
      headers: err.headers,
      code: `DAV-${err.status}`,
    };
  }
  if (err instanceof AppError) {
    return {
      status: davStatusOf(err),
      contentType: 'text/plain; charset=utf-8',
      body: `${err.code} ${err.message}\n`,
      headers: err.headers,
      code: err.code,
    };
  }
  return null;
}
