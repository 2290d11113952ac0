import { ERRORS } from '../../common/api/errors';
import type { UploadPurposeCode } from '../../common/api/endpoints/uploads';
import { AppError } from '../http/app-error';
import type { Caller } from './caller';

/**
 * Who may set the tenant's client releases (系统配置 → 客户端版本): the right `clientVersion/save`
 * asks (its access 'admin', enforced by the session guard: a tenant administrator).
 */
export function maySetClientReleases(caller: Caller): boolean {
  return caller.role === 'admin';
}

/**
 * An upload's purpose (endpoints/uploads.ts UploadPurpose) as the type checks see it: true when the
 * upload is a client installer its caller may send — the blocked-type and executable-content checks
 * are skipped for it, nothing else; false for an ordinary upload. A caller without the right who sends
 * the purpose is refused (INSTALLER_UPLOAD_FORBIDDEN), never let through as an ordinary upload.
 */
export function installerExempt(caller: Caller, purpose: UploadPurposeCode | undefined): boolean {
  if (purpose === undefined) return false;
  if (!maySetClientReleases(caller)) throw new AppError(ERRORS.INSTALLER_UPLOAD_FORBIDDEN);
  return true;
}
