import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { UPLOADS } from '../../common/api/endpoints/uploads';
import { BATCH_MANIFEST_MAX_BYTES, BATCH_MAX_BYTES, HEADER_BATCH_MANIFEST_SHA256 } from '../../common/transfer/batch-upload';
import { route } from '../http/endpoint-route';
import { callerOf } from '../http/session-guard';
import type { BatchUploadService } from '../services/batch-upload-service';

/** The small-file batch (declared in common/api/endpoints/uploads.ts): a framed raw body, read as it streams. */
export function registerBatchUploadRoutes(app: FastifyInstance, batches: BatchUploadService): void {
  // A scope of its own so the pass-through parser applies to this route only.
  void app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
    route(
      scope,
      UPLOADS.batchUpload,
      async (request) => {
        // A refusal before the body's end leaves the rest to http/readable-refusals.ts.
        const body = request.body instanceof Readable ? request.body : Readable.from([]);
        const digest = request.headers[HEADER_BATCH_MANIFEST_SHA256.toLowerCase()];
        return { data: await batches.upload(callerOf(request), body, typeof digest === 'string' ? digest : undefined) };
      },
      { bodyLimit: 4 + BATCH_MANIFEST_MAX_BYTES + BATCH_MAX_BYTES },
    );
  });
}
