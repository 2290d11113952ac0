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

/**
 * Chunk requests of a client installer its caller may send: a copy of the caller made for that one
 * request, so the first chunk's content check (UploadService.refuseExecutableHead, called back by the
 * chunk receiver with the caller it was given) knows it without widening the receiver's signatures.
 * A copy per request: no other request of the same session is exempted by it.
 */
export class InstallerRequests {
  private readonly requests = new WeakSet<Caller>();

  /** The caller to receive this chunk request with; refuses (installerExempt) a purpose sent without the right. */
  callerFor(caller: Caller, purpose: UploadPurposeCode | undefined): Caller {
    if (!installerExempt(caller, purpose)) return caller;
    const request = { ...caller };
    this.requests.add(request);
    return request;
  }

  has(caller: Caller): boolean {
    return this.requests.has(caller);
  }
}
