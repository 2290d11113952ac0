/**
 * What a client asks before it sends a file's bytes (declared in common/api/endpoints/pre-upload.ts):
 * instant second upload, the pre-upload checks, and the user's decisions on held items.
 */
import type { FastifyInstance } from 'fastify';
import { PRE_UPLOAD } from '../../common/api/endpoints/pre-upload';
import type { InterceptedFile } from '../../common/api/sharing';
import { route } from '../http/endpoint-route';
import { requirePlatformHeader } from '../http/client-headers';
import { callerOf } from '../http/session-guard';
import type { Caller } from '../services/caller';
import type { CheckService } from '../services/check-service';
import type { SecondUploadService } from '../services/second-upload-service';

export function registerPreUploadRoutes(
  app: FastifyInstance,
  secondUploads: SecondUploadService,
  checks: CheckService,
  /** The exchange area's intercepted files (unProcess/list?scope=exchange). */
  intercepted?: (caller: Caller) => Promise<InterceptedFile[]>,
): void {
  route(app, PRE_UPLOAD.secondUpload, async (request) => ({ data: await secondUploads.secondUpload(callerOf(request), request.body) }));
  route(app, PRE_UPLOAD.canBeUploadType, async (request) => ({ data: await checks.canBeUploadType(callerOf(request), request.body) }));
  route(app, PRE_UPLOAD.checkFileSensitiveOrLock, async (request) => ({ data: await checks.sensitiveOrLock(callerOf(request), request.body) }));
  route(app, PRE_UPLOAD.fileVersionCheck, async (request) => ({ data: await checks.fileVersionCheck(callerOf(request), request.body) }));
  route(app, PRE_UPLOAD.multipleFileCheck, async (request) => ({ data: await checks.multipleFileCheck(callerOf(request), request.body) }));
  route(app, PRE_UPLOAD.relativePathDirCreate, async (request) => ({ data: await checks.relativePathDirCreate(callerOf(request), request.body) }));
  route(app, PRE_UPLOAD.keepOnUpload, async (request) => {
    requirePlatformHeader(request);
    return { data: await checks.keep(callerOf(request), request.query) };
  });
  route(app, PRE_UPLOAD.giveUpUpload, async (request) => {
    requirePlatformHeader(request);
    return { data: await checks.giveUp(callerOf(request), request.query.key) };
  });
  route(app, PRE_UPLOAD.unProcessList, async (request) => {
    // scope=exchange: files the exchange area intercepted (sharing.ts); default: held uploads.
    if (request.query.scope === 'exchange' && intercepted) return { data: await intercepted(callerOf(request)) };
    return { data: await checks.listUnprocessed(callerOf(request)) };
  });
}
